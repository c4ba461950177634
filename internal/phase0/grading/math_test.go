package grading

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/phase0/benchdata"
)

func aime(answer string) Spec     { return Spec{Kind: KindMath, Answer: answer, Integer: true} }
func mathSpec(answer string) Spec { return Spec{Kind: KindMath, Answer: answer} }

type mathCase struct {
	name      string
	spec      Spec
	content   string
	outcome   Outcome
	extracted string
}

func TestGradeMath(t *testing.T) {
	cases := []mathCase{
		// \boxed{}
		{"boxed sentence", aime("204"), `Adding the 24 minutes, the walk takes 180 + 24 = 204 minutes, so the answer is $\boxed{204}$.`, OutcomeCorrect, "204"},
		{"boxed leading zeros both", aime("033"), `The answer is $\boxed{033}$.`, OutcomeCorrect, "33"},
		{"boxed no leading zeros, reference with", aime("025"), `Thus $xy = \boxed{25}$.`, OutcomeCorrect, "25"},
		{"boxed leading zeros, reference without", aime("33"), `$\boxed{033}$`, OutcomeCorrect, "33"},
		{"last boxed wins", aime("13"), "First I got $\\boxed{12}$, but I double counted one case.\n\nCorrecting it: $\\boxed{13}$", OutcomeCorrect, "13"},
		{"last boxed wins, earlier one right", aime("12"), "First I got $\\boxed{12}$, but wait.\n\nSo $\\boxed{13}$", OutcomeIncorrect, "13"},
		{"boxed beats later answer line", aime("42"), "$\\boxed{42}$\n\nAnswer: 41", OutcomeCorrect, "42"},
		{"boxed beats later number", aime("42"), "The answer is \\boxed{42}. I hope this helps 1", OutcomeCorrect, "42"},
		{"display boxed", aime("721"), "**Final Answer**\n\\[\n\\boxed{721}\n\\]", OutcomeCorrect, "721"},
		{"fbox", aime("42"), `so we get \fbox{42}`, OutcomeCorrect, "42"},
		{"boxed without braces", aime("42"), `the answer is $\boxed 42$.`, OutcomeCorrect, "42"},
		{"boxed mathbf", aime("80"), `$$\boxed{\mathbf{80}}$$`, OutcomeCorrect, "80"},
		{"boxed AoPS textbf", aime("113"), `the answer is $100 + 13 = \boxed{\textbf{(113) }}$.`, OutcomeCorrect, "113"},
		{"boxed with unit", aime("204"), `$\boxed{204 \text{ minutes}}$`, OutcomeCorrect, "204"},
		{"boxed with mathrm unit", aime("15"), `$\boxed{15\,\mathrm{cm}}$`, OutcomeCorrect, "15"},
		{"boxed thousands braces", aime("1000"), `$\boxed{1{,}000}$`, OutcomeCorrect, "1000"},
		{"boxed thousands comma", aime("1000"), `$\boxed{1,000}$`, OutcomeCorrect, "1000"},
		{"boxed thousands thin space", aime("1000"), `$\boxed{1\,000}$`, OutcomeCorrect, "1000"},
		{"boxed trailing period", aime("204"), `$\boxed{204.}$`, OutcomeCorrect, "204"},
		{"boxed decimal zero", aime("204"), `$\boxed{204.0}$`, OutcomeCorrect, "204"},
		{"boxed power", aime("1000"), `$\boxed{10^{3}}$`, OutcomeCorrect, "1000"},
		{"boxed degrees", aime("45"), `$\boxed{45^\circ}$`, OutcomeCorrect, "45"},
		{"boxed degrees braces", aime("45"), `$\boxed{45^{\circ}}$`, OutcomeCorrect, "45"},
		{"boxed percent", aime("25"), `$\boxed{25\%}$`, OutcomeCorrect, "25"},
		{"boxed variable", aime("5"), `$\boxed{x = 5}$`, OutcomeCorrect, "5"},
		{"boxed negative", mathSpec("-5"), `$\boxed{-5}$`, OutcomeCorrect, "-5"},
		{"boxed unicode minus", aime("-5"), "$\\boxed{\u22125}$", OutcomeCorrect, "-5"},
		{"boxed fraction is not an integer", aime("1"), `$\boxed{\dfrac{1}{2}}$`, OutcomeIncorrect, `\frac{1}{2}`},
		{"boxed sqrt is not an integer", aime("2"), `$\boxed{\sqrt{2}}$`, OutcomeIncorrect, `\sqrt{2}`},
		{"boxed decimal is not an integer", aime("3"), `$\boxed{3.5}$`, OutcomeIncorrect, "3.5"},
		{"boxed list is not an integer", aime("12"), `$\boxed{1, 2}$`, OutcomeIncorrect, "1,2"},
		{"boxed two numbers", aime("5"), `$\boxed{5 \text{ or } 6}$`, OutcomeIncorrect, "5or6"},
		{"boxed off by one", aime("204"), `$\boxed{205}$`, OutcomeIncorrect, "205"},
		{"boxed huge integer", aime("123456789012345678901234567890"), `$\boxed{123456789012345678901234567890}$`, OutcomeCorrect, "123456789012345678901234567890"},
		{"empty boxed", aime("5"), `I could not finish. The answer is $\boxed{}$. Maybe 5?`, OutcomeNoAnswer, ""},
		{"empty boxed after a full one", aime("5"), `So $\boxed{5}$. Final: $\boxed{ }$`, OutcomeCorrect, "5"},
		{"boxed cut off", aime("12"), `Therefore the answer is $\boxed{12`, OutcomeNoAnswer, ""},
		{"boxed other command", aime("7"), `\boxedanswer is weird, the result is 7`, OutcomeCorrect, "7"},
		// non-integer comparison
		{"dfrac vs frac", mathSpec(`\frac{1}{2}`), `$\boxed{\dfrac{1}{2}}$`, OutcomeCorrect, `\frac{1}{2}`},
		{"tfrac vs frac", mathSpec(`\frac{3}{4}`), `$\boxed{\tfrac34}$`, OutcomeCorrect, `\frac{3}{4}`},
		{"decimal vs fraction", mathSpec(`\frac{1}{2}`), `$\boxed{0.5}$`, OutcomeCorrect, "0.5"},
		{"negative fraction", mathSpec(`-\frac{3}{4}`), `$\boxed{-\dfrac{3}{4}}$`, OutcomeCorrect, `-\frac{3}{4}`},
		{"left right", mathSpec("(3,4)"), `$\boxed{\left( 3, 4 \right)}$`, OutcomeCorrect, "(3,4)"},
		{"escaped braces", mathSpec(`\{1,2\}`), `$\boxed{\{1, 2\}}$`, OutcomeCorrect, `\{1,2\}`},
		{"list not joined", mathSpec("1,2"), `$\boxed{1, 2}$`, OutcomeCorrect, "1,2"},
		{"text answer", mathSpec(`\text{(C)}`), `$\boxed{\text{(C)}}$`, OutcomeCorrect, "(C)"},
		{"sqrt", mathSpec(`3\sqrt{2}`), `$\boxed{3\sqrt2}$`, OutcomeCorrect, `3\sqrt{2}`},
		{"expression mismatch", mathSpec(`3\sqrt{2}`), `$\boxed{2\sqrt{3}}$`, OutcomeIncorrect, `2\sqrt{3}`},
		{"text words kept in the middle", mathSpec(`x \text{ and } y`), `$\boxed{x\text{ and }y}$`, OutcomeCorrect, "xandy"},
		// answer statements
		{"answer line then number", aime("42"), "Answer: 42\n\nI hope this helps 1", OutcomeCorrect, "42"},
		{"bold answer label", aime("42"), "We are done.\n\n**Answer:** 42", OutcomeCorrect, "42"},
		{"bold answer with number", aime("42"), "**Answer: 42**", OutcomeCorrect, "42"},
		{"final answer label", aime("42"), "Final Answer: 42", OutcomeCorrect, "42"},
		{"final answer is", aime("42"), "so the final answer is 42.", OutcomeCorrect, "42"},
		{"minerva format", aime("42"), "Final Answer: The final answer is $42$. I hope it is correct.", OutcomeCorrect, "42"},
		{"the answer is", aime("17"), "Checking all cases, the answer is 17. Let me verify once more: 3 + 14 = 17.", OutcomeCorrect, "17"},
		{"answer should be", aime("17"), "So the answer should be $17$", OutcomeCorrect, "17"},
		{"upper-case label", aime("17"), "ANSWER: 17", OutcomeCorrect, "17"},
		{"label then display math", aime("204"), "**Final Answer:**\n$$\n204\n$$\n", OutcomeCorrect, "204"},
		{"heading then bracket display", aime("204"), "**Final Answer**\n\\[\n204\n\\]", OutcomeCorrect, "204"},
		{"answer is then display", mathSpec(`\frac{1}{2}`), "The final answer is\n\\[\n\\dfrac{1}{2}\n\\]\nas required.", OutcomeCorrect, `\frac{1}{2}`},
		{"dollar amount", aime("5"), "The answer is $5 per apple. Each costs 1 dollar more than a pear.", OutcomeCorrect, "5"},
		{"heading then value", aime("42"), "### Final Answer\n\n42\n", OutcomeCorrect, "42"},
		{"label then next line", aime("42"), "The answer is:\n\n$$42$$", OutcomeCorrect, "42"},
		{"answer with thousands", aime("1000"), "Answer: 1,000", OutcomeCorrect, "1000"},
		{"answer with unit words", aime("7"), "The answer: 7 apples", OutcomeCorrect, "7"},
		{"answer prose", aime("204"), "Answer: There are 204 ways.", OutcomeCorrect, "204"},
		{"answer negative", mathSpec("-3"), "the answer is $-3$", OutcomeCorrect, "-3"},
		{"answer two numbers", aime("5"), "The answer is 5 or 6.", OutcomeIncorrect, "5or6"},
		{"answer fraction", aime("1"), `Answer: \frac{1}{2}`, OutcomeIncorrect, `\frac{1}{2}`},
		{"last answer line wins", aime("8"), "Answer: 7\n\nWait, I missed a case.\n\nAnswer: 8", OutcomeCorrect, "8"},
		{"answer word in prose is not a statement", aime("11"), "To answer this, we compute 5 + 6 = 11.", OutcomeCorrect, "11"},
		{"answers is not a statement", aime("3"), "Both answers agree, so we get 3", OutcomeCorrect, "3"},
		{"empty answer label", aime("3"), "Answer:", OutcomeNoAnswer, ""},
		// last number
		{"last number", aime("204"), "Therefore there are 204 ways to do it.", OutcomeCorrect, "204"},
		{"last number thousands", aime("1000"), "In total we need 1,000 tiles.", OutcomeCorrect, "1000"},
		{"last number negative", mathSpec("-7"), "The minimum value is -7", OutcomeCorrect, "-7"},
		{"last number after dash", aime("5"), "for x in 3-5", OutcomeCorrect, "5"},
		{"last number decimal", aime("3"), "the ratio is 3.5", OutcomeIncorrect, "3.5"},
		{"last number wrong", aime("204"), "I am not sure, maybe 2 cases remain.", OutcomeIncorrect, "2"},
		{"nothing", aime("204"), "I could not solve this problem.", OutcomeNoAnswer, ""},
		{"empty content", aime("204"), "", OutcomeNoAnswer, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkVerdict(t, GradeMath(c.spec, c.content), c.outcome, c.extracted)
		})
	}
}

func checkVerdict(t *testing.T, v Verdict, outcome Outcome, extracted string) {
	t.Helper()
	if v.Outcome != outcome || v.Extracted != extracted {
		t.Errorf("got %s %q (%s), want %s %q", v.Outcome, v.Extracted, v.Detail, outcome, extracted)
	}
}

func TestStripThinking(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"no tags", "  The answer is 5.\n", "  The answer is 5.\n"},
		{"one block", "<think>\nLet me think. Maybe \\boxed{3}.\n</think>\n\nThe answer is $\\boxed{5}$.", "The answer is $\\boxed{5}$."},
		{"pre-filled open tag", "Okay, so 2+2... \\boxed{3}?\n</think>\n\n**Answer:** 4", "**Answer:** 4"},
		{"unclosed", "<think>\nLet me compute... the answer is probably 12", ""},
		{"unclosed after text", "Intro.\n<think>\nmore thinking 12", "Intro."},
		{"two blocks", "<think>a 1</think>First part. <think>b 2</think>Answer: 3", "First part. Answer: 3"},
		{"only thinking", "<think>all of it 7</think>", ""},
		{"tag word in prose", "Use the think> operator", "Use the think> operator"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := StripThinking(c.in); got != c.want {
				t.Errorf("StripThinking(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// TestGradeAfterStripThinking: a boxed answer inside leaked thinking never
// counts; the graders see only what follows </think>.
func TestGradeAfterStripThinking(t *testing.T) {
	cases := []struct {
		content   string
		outcome   Outcome
		extracted string
	}{
		{"<think>\nSo it is \\boxed{204}? No wait.\n</think>\n\nThe walk takes $\\boxed{205}$ minutes.", OutcomeIncorrect, "205"},
		{"<think>\nSo it is \\boxed{205}? No wait, 204.\n</think>\n\nThe walk takes $\\boxed{204}$ minutes.", OutcomeCorrect, "204"},
		{"<think>\nThe answer is 204 minutes. Let me double-check the arithmetic: 9/2.5 = 3.6 hours", OutcomeNoAnswer, ""},
		{"Thinking without an opening tag: 204.\n</think>\nI cannot decide.", OutcomeNoAnswer, ""},
	}
	for i, c := range cases {
		checkVerdictN(t, i, GradeMath(aime("204"), StripThinking(c.content)), c.outcome, c.extracted)
	}
}

func checkVerdictN(t *testing.T, i int, v Verdict, outcome Outcome, extracted string) {
	t.Helper()
	if v.Outcome != outcome || v.Extracted != extracted {
		t.Errorf("case %d: got %s %q (%s), want %s %q", i, v.Outcome, v.Extracted, v.Detail, outcome, extracted)
	}
}

// TestGradeMathFixtures grades long, realistic model outputs kept in
// testdata/math: each file's first line is "answer: <reference>
// <outcome> <extracted>" ("-" for nothing extracted).
func TestGradeMathFixtures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "math", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			head, body, _ := strings.Cut(string(b), "\n")
			var ref, outcome, extracted string
			if _, err := fmt.Sscanf(head, "answer: %s %s %s", &ref, &outcome, &extracted); err != nil {
				t.Fatalf("header %q: %v", head, err)
			}
			if extracted == "-" {
				extracted = ""
			}
			checkVerdict(t, GradeMath(aime(ref), StripThinking(body)), Outcome(outcome), extracted)
		})
	}
}

type aimeRecord struct {
	ID       int    `json:"id"`
	Problem  string `json:"problem"`
	Solution string `json:"solution"`
	Answer   string `json:"answer"`
	URL      string `json:"url"`
}

func readAIME2024(tb testing.TB) []aimeRecord {
	tb.Helper()
	f, err := os.Open(benchdata.Path(tb, "aime/aime2024.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []aimeRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r aimeRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			tb.Fatal(err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// aimeFinishes are the ways realistic responses state an AIME answer; %s
// is the answer as the model writes it.
var aimeFinishes = []string{
	"so the answer is $\\boxed{%s}$.",
	"**Final Answer**\n\\[\n\\boxed{%s}\n\\]",
	"Therefore, the final answer is: $\\boxed{%s}$. I hope it is correct.",
	"\n**Answer:** %s",
	"Final Answer: The final answer is $%s$. I hope it is correct.",
	"### Final Answer\n\nThe requested number is $\\boxed{%s}$",
	"Answer: %s\n\nLet me know if you want the case analysis in more detail.",
	"Hence $m + n = \\boxed{\\textbf{%s}}$.",
}

// TestAIME2024 grades a realistic response to each of the 30 real AIME
// 2024 problems: the right answer (as written in the data, with its
// leading zeros, and as a model would write it, without) is correct, an
// answer off by one is incorrect.
func TestAIME2024(t *testing.T) {
	recs := readAIME2024(t)
	if len(recs) != 30 {
		t.Fatalf("%d AIME 2024 records, want 30", len(recs))
	}
	g := New(nil, nil)
	for i, r := range recs {
		spec := aime(r.Answer)
		if err := spec.Validate(); err != nil {
			t.Fatal(err)
		}
		n, err := strconv.Atoi(r.Answer) // not fmt.Sscan: it reads 025 as octal
		if err != nil {
			t.Fatalf("answer %q: %v", r.Answer, err)
		}
		finish := aimeFinishes[i%len(aimeFinishes)]
		reasoning := aimeReasoning(r.Problem, i)
		for _, tc := range []struct {
			written string
			want    Outcome
		}{
			{r.Answer, OutcomeCorrect},
			{fmt.Sprint(n), OutcomeCorrect},
			{fmt.Sprint(n + 1), OutcomeIncorrect},
			{fmt.Sprint(n - 1), OutcomeIncorrect},
		} {
			content := reasoning + fmt.Sprintf(finish, tc.written)
			v, err := g.Grade(context.Background(), spec, r.Problem, content)
			if err != nil {
				t.Fatal(err)
			}
			if v.Outcome != tc.want || (tc.want == OutcomeCorrect && v.Extracted != fmt.Sprint(n)) {
				t.Errorf("problem %d (%s) written %q: got %s %q (%s), want %s", r.ID, r.URL, tc.written, v.Outcome, v.Extracted, v.Detail, tc.want)
			}
		}
	}
}

// aimeReasoning is reasoning-like text for a problem: restating it, with
// intermediate numbers and an intermediate (abandoned) boxed value in
// some, as models write.
func aimeReasoning(problem string, i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "We are asked the following.\n\n> %s\n\n", strings.ReplaceAll(problem, "\n", "\n> "))
	fmt.Fprintf(&b, "**Step 1.** Set up the quantities. Let $a = %d$ and $b = %d$, so $a + b = %d$ and $ab = %d$.\n\n", i+3, 2*i+5, 3*i+8, (i+3)*(2*i+5))
	fmt.Fprintf(&b, "**Step 2.** Consider the cases $k = 1, 2, \\dots, %d$. For each case we count $\\binom{%d}{2} = %d$ configurations.\n\n", i+4, i+4, (i+4)*(i+3)/2)
	b.WriteString("**Step 3.** Combining, we obtain the total after simplifying $\\frac{m}{n}$ to lowest terms.\n\n")
	return b.String()
}

// TestAIME2024Solutions grades the real AoPS solutions in the committed
// file: every one that boxes its result grades correct (one solution has
// no box and ends with its author's signature, "-sepehr2010").
func TestAIME2024Solutions(t *testing.T) {
	f, err := os.ReadFile(benchdata.Path(t, "aime/aime2024.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	boxed := 0
	for _, line := range strings.Split(strings.TrimSpace(string(f)), "\n") {
		var r struct{ Solution, Answer, URL string }
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(r.Solution, `\boxed`) {
			continue
		}
		boxed++
		if v := GradeMath(aime(r.Answer), r.Solution); !v.Correct() {
			t.Errorf("%s: got %s %q (%s), want correct %s", r.URL, v.Outcome, v.Extracted, v.Detail, r.Answer)
		}
	}
	if boxed < 29 {
		t.Errorf("%d solutions with a box, want at least 29", boxed)
	}
}

// naiveLastBoxed is lastBoxed's specification: strings.LastIndex, no
// window.
func naiveLastBoxed(s string) (string, int, extractStatus) {
	status := extractNone
	for end, tries := len(s), 0; end > 0 && tries < maxCandidates; tries++ {
		b, f := strings.LastIndex(s[:end], `\boxed`), strings.LastIndex(s[:end], `\fbox`)
		k, n := b, len(`\boxed`)
		if f > b {
			k, n = f, len(`\fbox`)
		}
		if k < 0 {
			break
		}
		end = k
		i := k + n
		if i < len(s) && isLetter(s[i]) {
			continue
		}
		status = extractEmpty
		j := i
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		if j < len(s) && s[j] == '{' {
			if c := matchBrace(s, j); c >= 0 {
				if v := strings.TrimSpace(s[j+1 : c]); v != "" {
					return v, k, extractFound
				}
			}
			continue
		}
		if j == i {
			continue
		}
		e := j
		for e < len(s) && !isSpace(s[e]) && s[e] != '$' {
			e++
		}
		if e > j {
			return s[j:e], k, extractFound
		}
	}
	return "", -1, status
}

// TestLastBoxedWindow checks the backward window plus forward search of
// lastBoxed against the naive search, on random texts whose boxes fall
// on both sides of the window and across its edge.
func TestLastBoxedWindow(t *testing.T) {
	frags := []string{`\boxed{1}`, `\fbox{22}`, `\boxed{}`, `\boxed 3 `, `\boxedx`, `\frac{1}{2}`, " text ", `\`, "{", "}", `\boxed{\dfrac{1}{2}}`, `\boxed{4`}
	rng := uint64(1)
	next := func(n int) int {
		rng ^= rng << 13
		rng ^= rng >> 7
		rng ^= rng << 17
		return int(rng % uint64(n))
	}
	for trial := 0; trial < 3000; trial++ {
		var b strings.Builder
		for n := next(12); n > 0; n-- {
			b.WriteString(frags[next(len(frags))])
			b.WriteString(strings.Repeat("x\\,", next(300)))
		}
		s := b.String()
		v1, k1, s1 := lastBoxed(s)
		v2, k2, s2 := naiveLastBoxed(s)
		if v1 != v2 || k1 != k2 || s1 != s2 {
			t.Fatalf("len %d: got %q %d %d, want %q %d %d", len(s), v1, k1, s1, v2, k2, s2)
		}
	}
	// A box that starts just before the window and ends inside it.
	for pad := 500; pad < 530; pad++ {
		s := "x" + `\boxed{12345}` + strings.Repeat("y", pad)
		if v, _, _ := lastBoxed(s); v != "12345" {
			t.Errorf("pad %d: %q", pad, v)
		}
	}
}

// FuzzGraders: no input makes a text grader panic or return an outcome
// it does not define, an answer without Extracted, or a \boxed{} other
// than the naive search's.
func FuzzGraders(f *testing.F) {
	for _, s := range []string{
		`The answer is $\boxed{033}$.`, "Answer: (B) 42", "**Final Answer**\n\\[\n\\boxed{\\dfrac{1}{2}}\n\\]",
		"<think>\\boxed{1}</think>Answer: 2", "Explanation: x\nAnswer: Paris\nConfidence: 9%", `\boxed{\{1,2\}`,
		"1,000,000", "-\\frac{3}{4}", "A rectangle. (C) is correct.", `\boxed 5$`, "\uff21nswer: \u22125",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, v := range []Verdict{
			GradeMath(aime("204"), s), GradeMath(mathSpec(`\frac{1}{2}`), s),
			GradeChoice(choice4("B"), s), GradeChoice(hleChoice("K"), s),
			GradeExact(exact("Paris"), s), GradeMath(aime("204"), StripThinking(s)),
		} {
			switch v.Outcome {
			case OutcomeCorrect, OutcomeIncorrect:
				if v.Extracted == "" {
					t.Errorf("%q: %s without an extracted answer", s, v.Outcome)
				}
			case OutcomeNoAnswer:
			default:
				t.Errorf("%q: outcome %q", s, v.Outcome)
			}
		}
		v1, k1, s1 := lastBoxed(s)
		v2, k2, s2 := naiveLastBoxed(s)
		if v1 != v2 || k1 != k2 || s1 != s2 {
			t.Errorf("%q: lastBoxed %q %d %d, naive %q %d %d", s, v1, k1, s1, v2, k2, s2)
		}
		for _, sub := range []string{"nswer", "a", `\boxed`} {
			if got, want := lastIndex(s, sub), strings.LastIndex(s, sub); got != want {
				t.Errorf("%q: lastIndex %q = %d, want %d", s, sub, got, want)
			}
		}
	})
}

// degenerateUnits are what a model that repeats itself until the token
// limit (32K tokens and more) repeats, each a worst case of some search.
var degenerateUnits = []string{`\boxed{`, `\boxed{}`, "answer ", "The answer is the ", "</think>", "<think>", "{", `\text{`, "(B) ", "1,"}

// gradeDegenerate grades unit repeated to 1 MB with every grader.
func gradeDegenerate(unit string) {
	s := strings.Repeat(unit, (1<<20)/len(unit))
	GradeMath(aime("204"), StripThinking(s))
	GradeChoice(choice4("B"), s)
	GradeExact(exact("Paris"), s)
}

// TestDegenerateResponsesAreLinear: degenerate responses are graded; the
// searches are bounded, not quadratic (milliseconds each, the time
// BenchmarkDegenerateResponse measures). A quadratic search over 1 MB
// makes about 10^12 steps, tens of minutes: the two minutes allowed here
// catch that, not a slow machine.
func TestDegenerateResponsesAreLinear(t *testing.T) {
	for _, unit := range degenerateUnits {
		start := time.Now()
		gradeDegenerate(unit)
		if d := time.Since(start); d > 2*time.Minute {
			t.Errorf("%q repeated to 1 MB: %v", unit, d)
		} else {
			t.Logf("%q repeated to 1 MB: %v", unit, d)
		}
	}
}

// BenchmarkDegenerateResponse grades each degenerate unit repeated to 1 MB
// with every grader; one op is one response (target: a few ms).
func BenchmarkDegenerateResponse(b *testing.B) {
	for _, unit := range degenerateUnits {
		b.Run(strings.TrimSpace(unit), func(b *testing.B) {
			for b.Loop() {
				gradeDegenerate(unit)
			}
		})
	}
}

// TestLastIndex checks the chunked search against strings.LastIndex
// around the chunk edges.
func TestLastIndex(t *testing.T) {
	for _, sub := range []string{"nswer", `\boxed`, "x"} {
		for n := 0; n < 3000; n += 7 {
			for _, at := range []int{-1, 0, n / 2, n - len(sub), n - 256, n - 256 - len(sub) + 1, n - 257, n - 768 + 2} {
				b := []byte(strings.Repeat("ab\\", n/3+1)[:n])
				if at >= 0 && at+len(sub) <= n {
					copy(b[at:], sub)
				}
				s := string(b)
				if got, want := lastIndex(s, sub), strings.LastIndex(s, sub); got != want {
					t.Fatalf("lastIndex(len %d, %q at %d) = %d, want %d", n, sub, at, got, want)
				}
			}
		}
	}
}
