package importers

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/phase0/benchdata"
	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/store/problems"
)

// checkChoice checks a choice problem against its source options: the
// displayed options are the source's permuted, the answer letter shows the
// correct one, and the text lists the options in displayed order.
func checkChoice(t *testing.T, p problems.Problem, question string, source []string, correct int) grading.Spec {
	t.Helper()
	s := specOf(t, p)
	if s.Kind != grading.KindChoice || len(s.Choices) != len(source) {
		t.Fatalf("%s: spec %+v", p.ID, s)
	}
	perm := make([]int, len(source))
	for i := range perm {
		perm[i] = i
	}
	if s.Shuffle != nil {
		perm = s.Shuffle.Permutation
	}
	for k, src := range perm {
		if s.Choices[k] != strings.TrimSpace(source[src]) {
			t.Fatalf("%s: choice %d is %q, want source option %d %q", p.ID, k, s.Choices[k], src, source[src])
		}
	}
	if got := s.Choices[s.Answer[0]-'A']; got != strings.TrimSpace(source[correct]) {
		t.Fatalf("%s: answer %s is %q, want the correct option %q", p.ID, s.Answer, got, source[correct])
	}
	want := strings.TrimSpace(question) + "\n\n"
	for k, c := range s.Choices {
		want += fmt.Sprintf("%c) %s", 'A'+k, c)
		if k < len(s.Choices)-1 {
			want += "\n"
		}
	}
	if p.Text != want {
		t.Fatalf("%s: text\n%q\nwant\n%q", p.ID, p.Text, want)
	}
	return s
}

type mmluRow struct {
	Question string   `json:"question"`
	Type     string   `json:"type"`
	Choices  []string `json:"choices"`
	Answer   int      `json:"answer"`
}

func readMMLURows(t *testing.T) ([]mmluRow, []string) {
	t.Helper()
	data, err := os.ReadFile(benchdata.Path(t, "mmlu/mmlu_math.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	rows := make([]mmluRow, len(lines))
	for i, l := range lines {
		if err := json.Unmarshal([]byte(l), &rows[i]); err != nil {
			t.Fatal(err)
		}
	}
	return rows, lines
}

var mmluID = regexp.MustCompile(`^[a-z_]+-[0-9a-f]{12}$`)

func TestMMLUSharedFile(t *testing.T) {
	rows, _ := readMMLURows(t)
	ps, rep, err := MMLU([]Input{fileInput(t, benchdata.Path(t, "mmlu/mmlu_math.jsonl"))}, MMLUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// One record (elementary_mathematics, "Stephanie flew 2,448 miles…")
	// appears twice, identical: it is skipped once as a duplicate.
	if rep.Records != 1064 || len(ps) != 1063 || skipCount(rep, "duplicate record") != 1 || rep.Skipped() != 1 {
		t.Fatalf("got %d problems, report %+v", len(ps), rep)
	}
	if ex := rep.Skips[0].Examples[0]; ex != "mmlu_math.jsonl:876 (same as mmlu_math.jsonl:691)" {
		t.Errorf("duplicate example %q", ex)
	}
	seen := map[string]bool{}
	for _, p := range ps {
		if !mmluID.MatchString(p.ID) || seen[p.ID] || p.Dataset != "mmlu-math" || p.Unsolvable {
			t.Fatalf("bad or repeated problem %s (%s)", p.ID, p.Dataset)
		}
		seen[p.ID] = true
	}
	// Problems follow the source order, minus the duplicate at line 876.
	j := 0
	for i, r := range rows {
		if i+1 == 876 {
			continue
		}
		p := ps[j]
		j++
		if !strings.HasPrefix(p.ID, r.Type+"-") {
			t.Fatalf("line %d: id %s, subject %s", i+1, p.ID, r.Type)
		}
		s := checkChoice(t, p, r.Question, r.Choices, r.Answer)
		if s.Shuffle != nil {
			t.Fatalf("%s: shuffled without --shuffle", p.ID)
		}
	}
	first := ps[0]
	if first.Text != "Find the degree for the given field extension Q(sqrt(2), sqrt(3), sqrt(18)) over Q.\n\nA) 0\nB) 4\nC) 2\nD) 6" || specOf(t, first).Answer != "B" {
		t.Errorf("first problem %+v", first)
	}
	roundTrip(t, ps)
}

func TestMMLUShuffleIsPerItemNotPerFile(t *testing.T) {
	rows, lines := readMMLURows(t)
	opt := MMLUOptions{Shuffle: true, Seed: 42, Subjects: []string{"abstract_algebra", "college_mathematics"}}
	ps, rep, err := MMLU([]Input{fileInput(t, benchdata.Path(t, "mmlu/mmlu_math.jsonl"))}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 200 || skipCount(rep, "subject not selected") != 864 {
		t.Fatalf("got %d problems, report %+v", len(ps), rep)
	}
	// The same records in reverse order shuffle the same way.
	reversed := slices.Clone(lines)
	slices.Reverse(reversed)
	ps2, _, err := MMLU([]Input{textInput("rev.jsonl", strings.Join(reversed, "\n"))}, opt)
	if err != nil {
		t.Fatal(err)
	}
	ids := byID(ps2)
	moved := 0
	for _, p := range ps {
		if !reflect.DeepEqual(ids[p.ID], p) {
			t.Fatalf("%s differs when the file is reversed", p.ID)
		}
		s := specOf(t, p)
		if s.Shuffle == nil || s.Shuffle.Seed != 42 {
			t.Fatalf("%s: shuffle not recorded: %+v", p.ID, s)
		}
		if !slices.Equal(s.Shuffle.Permutation, []int{0, 1, 2, 3}) {
			moved++
		}
	}
	if moved < 150 {
		t.Errorf("only %d of 200 items had their options moved", moved)
	}
	// Every shuffled problem still shows its correct option under its letter.
	bySource := map[string]mmluRow{}
	for _, r := range rows {
		key := strings.TrimSpace(r.Question)
		for _, c := range r.Choices {
			key += "\x00" + strings.TrimSpace(c)
		}
		bySource[key] = r
	}
	for _, p := range ps {
		s := specOf(t, p)
		src := make([]string, 4)
		for k, i := range s.Shuffle.Permutation {
			src[i] = s.Choices[k]
		}
		q, _, _ := strings.Cut(p.Text, "\n\nA) ")
		r, ok := bySource[q+"\x00"+strings.Join(src, "\x00")]
		if !ok {
			t.Fatalf("%s: no source record for the unshuffled options", p.ID)
		}
		checkChoice(t, p, r.Question, r.Choices, r.Answer)
	}
	roundTrip(t, ps)
}

func TestMMLUMathAbstainYields133(t *testing.T) {
	in := fileInput(t, benchdata.Path(t, "mmlu/mmlu_math.jsonl"))
	ps, rep, err := MMLUAbstain([]Input{in}, MMLUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 133 {
		t.Fatalf("MMLU-Math-Abstain has %d questions, want 133; report %+v", len(ps), rep)
	}
	if skipCount(rep, "subject not selected") != 594 || skipCount(rep, noFinalQuestion) != 337 || rep.Records != 1064 {
		t.Errorf("report %+v", rep)
	}
	solvable, _, err := MMLU([]Input{fileInput(t, benchdata.Path(t, "mmlu/mmlu_math.jsonl"))}, MMLUOptions{Subjects: MMLUAbstainSubjects})
	if err != nil {
		t.Fatal(err)
	}
	src := byID(solvable)
	for _, p := range ps {
		base, ok := strings.CutSuffix(p.ID, "-abstain")
		orig, found := src[base]
		if !ok || !found || !p.Unsolvable || p.Dataset != "mmlu-math-abstain" {
			t.Fatalf("problem %+v", p)
		}
		if string(p.Grading) != string(orig.Grading) {
			t.Fatalf("%s: grading %s differs from the source's %s", p.ID, p.Grading, orig.Grading)
		}
		q, opts, _ := strings.Cut(p.Text, "\n\n")
		_, origOpts, _ := strings.Cut(orig.Text[strings.LastIndex(orig.Text, "\n\nA) "):], "\n\n")
		if opts != origOpts || strings.ContainsAny(q[:len(q)-1], ".?!") || !strings.HasSuffix(q, "?") {
			t.Fatalf("%s: text %q", p.ID, p.Text)
		}
		if !strings.Contains(orig.Text, ". "+q) {
			t.Fatalf("%s: %q is not the final sentence of %q", p.ID, q, orig.Text)
		}
	}
	roundTrip(t, ps)
}

func TestFinalQuestion(t *testing.T) {
	for _, c := range []struct {
		in, want string
	}{
		{"Let G be a group. Which statement is true?", "Which statement is true?"},
		{"The value is 3.5 m/s. What is it in km/h?\n", "What is it in km/h?"},
		{"x = 2.0 and y = 3. What is x+y?", "What is x+y?"},
		{"Line one.\nLine two. Given $f(x)$, what is $f'(0)$?", "Given $f(x)$, what is $f'(0)$?"},
		{"Which is true?", ""},                                          // no ". " before
		{"Find x. Give it in cm.", ""},                                  // ends in "."
		{"Is it stable? Explain. Why not?", "Why not?"},                 // the last sentence only
		{"Is it so. Really? Why?", ""},                                  // a "?" inside the final sentence
		{"Stop. Wait! Why?", ""},                                        // a "!" inside
		{"It is 3.5. What?\n\n", ""},                                    // two trailing newlines: Python's $ allows one
		{"It costs $2.50? What?", ""},                                   // the last "." is not followed by " "
		{"Compute. ?", ""},                                              // nothing before the "?"
		{"The set {1, 2, 3}. What is\nits size?", "What is\nits size?"}, // a newline is allowed
		{"Compute 2.5 * 2. ", ""},                                       // trailing blank
	} {
		got, ok := FinalQuestion(c.in)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("FinalQuestion(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
}

func TestMMLUMalformed(t *testing.T) {
	data := jsonl(t,
		map[string]any{"question": "Q1?", "type": "algebra", "choices": []string{"1", "2"}, "answer": 2},
		map[string]any{"question": "Q2?", "type": "algebra", "choices": "1,2", "answer": 0},
		map[string]any{"question": "Q3?", "choices": []string{"1", "2"}, "answer": 0},
		map[string]any{"question": "Q4?", "type": "algebra", "choices": []string{"1", " "}, "answer": "B"},
		map[string]any{"question": "Q5?", "subject": "algebra", "choices": []string{"1", "2"}, "answer": "B"},
	)
	_, _, err := MMLU([]Input{textInput("m.jsonl", data)}, MMLUOptions{})
	wantIssues(t, err,
		"m.jsonl:1: answer: must be an option index 0 to 1, got 2",
		"m.jsonl:2: choices: must be an array of strings, got string",
		"m.jsonl:3: type: required",
		"m.jsonl:4: choices: option 1 is empty",
	)
	if strings.Contains(err.Error(), "m.jsonl:5") {
		t.Errorf("a subject field and a letter answer are accepted:\n%v", err)
	}
}

// gpqaRows reads the synthetic GPQA fixture with encoding/csv.
func gpqaRows(t *testing.T) []map[string]string {
	t.Helper()
	f, err := os.Open("testdata/gpqa_synthetic.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	br.Discard(3) // the BOM
	all, err := csv.NewReader(br).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]string
	for _, rec := range all[1:] {
		m := map[string]string{}
		for i, h := range all[0] {
			m[h] = rec[i]
		}
		rows = append(rows, m)
	}
	return rows
}

func gpqaOptions(r map[string]string) []string {
	return []string{r["Correct Answer"], r["Incorrect Answer 1"], r["Incorrect Answer 2"], r["Incorrect Answer 3"]}
}

func TestGPQACSVAndJSONL(t *testing.T) {
	rows := gpqaRows(t)
	ps, rep, err := GPQA([]Input{fileInput(t, "testdata/gpqa_synthetic.csv")}, GPQAOptions{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != len(rows) || rep.Records != len(rows) || rep.Problems["gpqa"] != len(rows) {
		t.Fatalf("got %d problems, report %+v", len(ps), rep)
	}
	for i, r := range rows {
		p := ps[i]
		if p.ID != r["Record ID"] || p.Dataset != "gpqa" {
			t.Fatalf("problem %d: %s %s", i, p.ID, p.Dataset)
		}
		s := checkChoice(t, p, r["Question"], gpqaOptions(r), 0)
		if s.Shuffle == nil || s.Shuffle.Seed != 7 || !slices.Equal(s.Shuffle.Permutation, Permutation(7, p.ID, 4)) {
			t.Fatalf("%s: shuffle %+v", p.ID, s.Shuffle)
		}
	}
	if strings.Contains(ps[2].Text, "\n\n\nA)") || !strings.Contains(ps[2].Text, "A + B -> C\n\nThe rate doubles") {
		t.Errorf("multi-line question: %q", ps[2].Text)
	}
	roundTrip(t, ps)

	// The same rows as JSONL (as the Hugging Face viewer exports them),
	// in reverse order and with a null column, give the same problems.
	var recs []any
	for i := len(rows) - 1; i >= 0; i-- {
		m := map[string]any{}
		for k, v := range rows[i] {
			m[k] = v
		}
		m["Writer's Difficulty Estimate"] = nil
		recs = append(recs, m)
	}
	ps2, _, err := GPQA([]Input{textInput("gpqa.jsonl", jsonl(t, recs...))}, GPQAOptions{Seed: 7, Dataset: "gpqa-diamond"})
	if err != nil {
		t.Fatal(err)
	}
	ids := byID(ps2)
	for _, p := range ps {
		q := ids[p.ID]
		if q.Dataset != "gpqa-diamond" || q.Text != p.Text || string(q.Grading) != string(p.Grading) {
			t.Fatalf("%s: JSONL gives %+v, CSV %+v", p.ID, q, p)
		}
	}
	// Another seed shuffles differently.
	ps3, _, err := GPQA([]Input{fileInput(t, "testdata/gpqa_synthetic.csv")}, GPQAOptions{Seed: 8})
	if err != nil {
		t.Fatal(err)
	}
	differ := 0
	for i := range ps {
		if ps[i].Text != ps3[i].Text {
			differ++
		}
	}
	if differ == 0 {
		t.Error("seeds 7 and 8 shuffle every item the same way")
	}
}

func TestGPQAAbstain(t *testing.T) {
	ps, rep, err := GPQAAbstain([]Input{fileInput(t, "testdata/gpqa_synthetic.csv")}, GPQAOptions{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, p := range ps {
		ids = append(ids, p.ID)
		if !p.Unsolvable || p.Dataset != "gpqa-abstain" {
			t.Fatalf("%+v", p)
		}
	}
	want := []string{"recSYN0001-abstain", "recSYN0003-abstain", "recSYN0004-abstain", "recSYN0005-abstain", "recSYN0008-abstain"}
	if !slices.Equal(ids, want) || skipCount(rep, noFinalQuestion) != 3 {
		t.Fatalf("ids %v, report %+v", ids, rep)
	}
	full, _, _ := GPQA([]Input{fileInput(t, "testdata/gpqa_synthetic.csv")}, GPQAOptions{Seed: 7})
	src := byID(full)
	for _, p := range ps {
		orig := src[strings.TrimSuffix(p.ID, "-abstain")]
		if string(p.Grading) != string(orig.Grading) {
			t.Errorf("%s: grading differs from GPQA's", p.ID)
		}
	}
	if got := byID(ps)["recSYN0003-abstain"].Text; !strings.HasPrefix(got, "What is the order of the reaction in A?\n\nA) ") {
		t.Errorf("recSYN0003 text %q", got)
	}
	if got := byID(ps)["recSYN0005-abstain"].Text; !strings.HasPrefix(got, "What is its speed in km/h?\n\nA) ") {
		t.Errorf("recSYN0005 text %q", got)
	}
	roundTrip(t, ps)
}

func TestGPQAMalformed(t *testing.T) {
	csvData := "Question,Correct Answer,Incorrect Answer 1,Incorrect Answer 2,Record ID\n" +
		"Q?,a,b,c,rec1\n"
	_, _, err := GPQA([]Input{textInput("g.csv", csvData)}, GPQAOptions{})
	wantIssues(t, err, "g.csv:2: Incorrect Answer 3: required")
	_, _, err = GPQA([]Input{textInput("g.csv", "Question,Record ID\n\"unterminated,x\n")}, GPQAOptions{})
	wantIssues(t, err, "g.csv:2: invalid CSV")
	_, _, err = GPQA([]Input{textInput("g.jsonl", `{"Question":"Q?","Correct Answer":"a","Incorrect Answer 1":"b","Incorrect Answer 2":"c","Incorrect Answer 3":"","Record ID":"r"}`)}, GPQAOptions{})
	wantIssues(t, err, "g.jsonl:1: Incorrect Answer 3: must not be empty")
}

func TestPermutation(t *testing.T) {
	// Pinned: a change here changes every recorded shuffle.
	if got := Permutation(0, "recSYN0001", 4); !slices.Equal(got, pinnedPermutation) {
		t.Errorf("Permutation(0, recSYN0001, 4) = %v, pinned %v", got, pinnedPermutation)
	}
	if got := Permutation(42, "abstract_algebra-586d5645b21b", 4); !slices.Equal(got, []int{1, 0, 3, 2}) {
		t.Errorf("Permutation(42, abstract_algebra-586d5645b21b, 4) = %v, pinned [1 0 3 2]", got)
	}
	counts := [4][4]int{}
	for i := range 4000 {
		p := Permutation(3, fmt.Sprint("item", i), 4)
		seen := [4]bool{}
		for k, src := range p {
			if seen[src] {
				t.Fatalf("not a permutation: %v", p)
			}
			seen[src] = true
			counts[k][src]++
		}
	}
	for k := range 4 {
		for src := range 4 {
			if c := counts[k][src]; c < 850 || c > 1150 {
				t.Errorf("option %d shown at %d in %d of 4000 shuffles, want about 1000", src, k, c)
			}
		}
	}
	if got := Permutation(1, "x", 1); !slices.Equal(got, []int{0}) {
		t.Errorf("one option: %v", got)
	}
}

// pinnedPermutation is what the documented algorithm gives (checked with an
// independent Python implementation of the Permutation comment).
var pinnedPermutation = []int{3, 1, 2, 0}
