package importers

import (
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/phase0/benchdata"
	"github.com/triage-eval/triage/internal/phase0/grading"
)

func errorsAs(err error, target any) bool { return errors.As(err, target) }

func TestAIME2024(t *testing.T) {
	ps, rep, err := AIME([]Input{fileInput(t, benchdata.Path(t, "aime/aime2024.jsonl"))}, AIMEOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 30 || rep.Records != 30 || rep.Skipped() != 0 || rep.Problems["aime"] != 30 {
		t.Fatalf("got %d problems, report %+v", len(ps), rep)
	}
	ids := byID(ps)
	for _, c := range []string{"I", "II"} {
		for n := 1; n <= 15; n++ {
			if _, ok := ids[fmt.Sprintf("2024-%s-%d", c, n)]; !ok {
				t.Errorf("no problem 2024-%s-%d", c, n)
			}
		}
	}
	// Spot checks: the url, not the numeric id, gives the problem; "025"
	// is normalized.
	for id, answer := range map[string]string{"2024-I-1": "204", "2024-I-2": "25", "2024-II-1": "73", "2024-II-4": "33", "2024-I-10": "113"} {
		s := specOf(t, ids[id])
		if s.Kind != grading.KindMath || !s.Integer || s.Answer != answer {
			t.Errorf("%s: spec %+v, want math integer answer %s", id, s, answer)
		}
	}
	if p := ids["2024-I-1"]; !strings.HasPrefix(p.Text, "Every morning Aya goes for a $9$-kilometer-long walk") || p.Dataset != "aime" {
		t.Errorf("2024-I-1: %+v", p)
	}
	roundTrip(t, ps)
}

func TestAIME2025MatchesCrossCheckCSVs(t *testing.T) {
	ps, rep, err := AIME([]Input{fileInput(t, benchdata.Path(t, "aime/aime2025.jsonl"))}, AIMEOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 30 || rep.Skipped() != 0 {
		t.Fatalf("got %d problems, report %+v", len(ps), rep)
	}
	want := map[string]string{}
	for _, c := range []string{"I", "II"} {
		f, err := os.Open(benchdata.Path(t, "aime/aime2025_"+c+"_answers.csv"))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range rows[1:] { // header id,answer
			want["2025-"+c+"-"+row[0]] = row[1]
		}
	}
	if len(want) != 30 {
		t.Fatalf("cross-check CSVs have %d answers", len(want))
	}
	got := map[string]string{}
	for _, p := range ps {
		got[p.ID] = specOf(t, p).Answer
		if strings.Contains(p.Text, "Please reason step by step") || strings.Contains(p.Text, `\boxed{}`) {
			t.Errorf("%s: instruction left in the text: …%q", p.ID, p.Text[max(0, len(p.Text)-80):])
		}
	}
	for id, a := range want {
		if got[id] != a {
			t.Errorf("%s: answer %q, cross-check CSV says %q", id, got[id], a)
		}
	}
	if p := byID(ps)["2025-I-1"]; p.Text != `Find the sum of all integer bases $b>9$ for which $17_b$ is a divisor of $97_b.$` {
		t.Errorf("2025-I-1 text %q", p.Text)
	}
	roundTrip(t, ps)
}

func TestAIMEBothFilesTogether(t *testing.T) {
	ps, rep, err := AIME([]Input{
		fileInput(t, benchdata.Path(t, "aime/aime2024.jsonl")),
		fileInput(t, benchdata.Path(t, "aime/aime2025.jsonl")),
	}, AIMEOptions{Dataset: "aime-24-25"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 60 || rep.Problems["aime-24-25"] != 60 {
		t.Fatalf("got %d problems, report %+v", len(ps), rep)
	}
	roundTrip(t, ps)
}

func TestAIMEYear(t *testing.T) {
	data := jsonl(t, map[string]any{"prompt": "What is 1+1?\nPlease reason step by step, and put your final answer within \\boxed{}.", "answer": 2})
	if _, _, err := AIME([]Input{textInput("problems.jsonl", data)}, AIMEOptions{}); err == nil || !strings.Contains(err.Error(), "--year") {
		t.Fatalf("no year: err %v, want one asking for --year", err)
	}
	ps, _, err := AIME([]Input{textInput("problems.jsonl", data)}, AIMEOptions{Year: 2026})
	if err != nil || len(ps) != 1 || ps[0].ID != "2026-I-1" || ps[0].Text != "What is 1+1?" {
		t.Fatalf("--year 2026: %+v, %v", ps, err)
	}
	for name, want := range map[string]int{"aime25.jsonl": 2025, "data/AIME_2026_test.jsonl": 2026, "test-2023.jsonl": 2023, "x.jsonl": 0} {
		if got := yearFromName(name); got != want {
			t.Errorf("yearFromName(%q) = %d, want %d", name, got, want)
		}
	}
	// Record 16 is II-1; a 31st record has no problem.
	var recs []any
	for k := 1; k <= 31; k++ {
		recs = append(recs, map[string]any{"prompt": fmt.Sprintf("Problem %d?", k), "answer": k})
	}
	_, _, err = AIME([]Input{textInput("aime2030.jsonl", jsonl(t, recs...))}, AIMEOptions{})
	wantIssues(t, err, "aime2030.jsonl:31: record 31: the prompt/answer form has at most 30 records")
	ps, _, err = AIME([]Input{textInput("aime2030.jsonl", jsonl(t, recs[:30]...))}, AIMEOptions{})
	if err != nil || ps[15].ID != "2030-II-1" || specOf(t, ps[15]).Answer != "16" || ps[29].ID != "2030-II-15" {
		t.Fatalf("30 records: %v", err)
	}
}

func TestAIMEMalformedListsEveryIssue(t *testing.T) {
	good := map[string]any{"id": 1, "problem": "P?", "answer": "7", "url": "https://x/wiki/index.php/2024_AIME_I_Problems/Problem_1"}
	lines := []string{jsonl(t, good)}
	for range 5 {
		lines = append(lines, "\n")
	}
	bad := map[string]any{"id": 2, "problem": "Q?", "answer": "x", "url": "https://x/wiki/index.php/2024_AIME_I_Problems/Problem_2"}
	lines = append(lines, jsonl(t, bad)) // line 7
	lines = append(lines, jsonl(t, map[string]any{"problem": "R?", "answer": "1000", "url": "https://x/2024_AIME_II_Problems/Problem_3"}))
	lines = append(lines, jsonl(t, map[string]any{"problem": "", "answer": 5, "url": "https://x/2024_AIME_II_Problems/Problem_16"}))
	lines = append(lines, "{not json\n", "[1]\n", jsonl(t, map[string]any{"question": "Q"}))
	_, _, err := AIME([]Input{textInput("aime2024.jsonl", strings.Join(lines, ""))}, AIMEOptions{})
	wantIssues(t, err,
		`aime2024.jsonl:7: answer: must be an integer, got "x"`,
		`aime2024.jsonl:8: answer: an AIME answer is 0 to 999, got 1000`,
		`aime2024.jsonl:9: url: problem number must be 1 to 15, got 16`,
		`aime2024.jsonl:10: invalid JSON`,
		`aime2024.jsonl:11: must be a JSON object, got array`,
		`aime2024.jsonl:12: neither "url"`,
	)
}

func TestAIMEDuplicates(t *testing.T) {
	rec := map[string]any{"problem": "P?", "answer": "7", "url": "https://x/2024_AIME_I_Problems/Problem_1"}
	ps, rep, err := AIME([]Input{textInput("a.jsonl", jsonl(t, rec, rec))}, AIMEOptions{})
	if err != nil || len(ps) != 1 || skipCount(rep, "duplicate record") != 1 || !strings.Contains(rep.Skips[0].Examples[0], "a.jsonl:2 (same as a.jsonl:1)") {
		t.Fatalf("identical duplicate: %v, %+v", err, rep)
	}
	other := map[string]any{"problem": "P?", "answer": "8", "url": "https://x/2024_AIME_I_Problems/Problem_1"}
	_, _, err = AIME([]Input{textInput("a.jsonl", jsonl(t, rec, other))}, AIMEOptions{})
	wantIssues(t, err, `a.jsonl:2: id "2024-I-1" of dataset "aime" already on a.jsonl:1, with different content`)
}

func TestJSONArrayIsNotJSONL(t *testing.T) {
	_, _, err := AIME([]Input{textInput("a.jsonl", "{\"prompt\":\"Q?\",\"answer\":1}\n"), textInput("b.json", "[\n  {\"prompt\": \"Q?\", \"answer\": 1}\n]\n")}, AIMEOptions{Year: 2020})
	wantIssues(t, err, "b.json:1: looks like a JSON array, not JSON Lines")
	if strings.Count(err.Error(), "\n") != 0 {
		t.Errorf("one issue expected:\n%v", err)
	}
}
