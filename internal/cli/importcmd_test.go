package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/phase0/benchdata"
	"github.com/triage-eval/triage/internal/store/problems"
)

func runImportCLI(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	env, out, errOut := testEnv(nil)
	err = Run(context.Background(), append([]string{"import"}, args...), env)
	return out.String(), errOut.String(), err
}

func TestImportAIMEToFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "aime.jsonl")
	stdout, stderr, err := runImportCLI(t, "aime", "--out", out, benchdata.Path(t, "aime/aime2024.jsonl"), benchdata.Path(t, "aime/aime2025.jsonl"))
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout %q, want nothing with --out", stdout)
	}
	if !strings.Contains(stderr, "aime: 60 records read, 60 problems (aime 60), 0 skipped") || !strings.Contains(stderr, "wrote 60 problems to "+out) {
		t.Errorf("stderr:\n%s", stderr)
	}
	ps, err := problems.ReadFile(out)
	if err != nil || len(ps) != 60 || ps[0].ID != "2024-I-1" || ps[59].ID != "2025-II-15" {
		t.Fatalf("read back: %d problems, %v", len(ps), err)
	}
	if st, _ := os.Stat(out); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", st.Mode())
	}
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestImportToStdoutAndReport(t *testing.T) {
	stdout, stderr, err := runImportCLI(t, "mmlu-abstain", benchdata.Path(t, "mmlu/mmlu_math.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ps, err := problems.Read(strings.NewReader(stdout), "stdout")
	if err != nil || len(ps) != 133 || !ps[0].Unsolvable || ps[0].Dataset != "mmlu-math-abstain" {
		t.Fatalf("%d problems, %v", len(ps), err)
	}
	for _, want := range []string{
		"mmlu-abstain: 1064 records read, 133 problems (mmlu-math-abstain 133), 931 skipped",
		"skipped 337: no final question sentence (AbstentionBench recipe), e.g. ",
		"skipped 594: subject not selected, e.g. ",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}

	// LCB's default window skips the 2023–24 sample (TestImportKeptNothing);
	// --since takes it all, and the summary flags that none of it has
	// hidden tests.
	stdout, stderr, err = runImportCLI(t, "lcb", "--since", "2023-01-01", benchdata.Path(t, "lcb/lcb_sample.jsonl"))
	if ps, rerr := problems.Read(strings.NewReader(stdout), "stdout"); err != nil || rerr != nil || len(ps) != 16 {
		t.Fatalf("lcb --since: %v, %v", err, rerr)
	}
	for _, want := range []string{
		"lcb: 16 records read, 16 problems (lcb 16), 0 skipped",
		"public tests only: 16 of 16 problems have no hidden tests",
		"e.g. " + benchdata.Path(t, "lcb/lcb_sample.jsonl") + ":1 (2727)",
		"--require-hidden-tests refuses them",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("lcb --since: stderr lacks %q:\n%s", want, stderr)
		}
	}
}

// TestImportRequireHiddenTests: --require-hidden-tests skips the problems
// graded on public tests alone, counts them with the reason, and keeps the
// others; with --public-only it is a usage error.
func TestImportRequireHiddenTests(t *testing.T) {
	fixture := filepath.Join("..", "phase0", "importers", "testdata", "lcb_compressed.jsonl")
	stdout, stderr, err := runImportCLI(t, "lcb", "--since", "", "--require-hidden-tests", fixture)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	ps, err := problems.Read(strings.NewReader(stdout), "stdout")
	if err != nil || len(ps) != 2 || ps[0].ID != "9001" || ps[1].ID != "abc900_a" {
		t.Fatalf("kept %d problems, %v; want 9001 and abc900_a, which have hidden tests", len(ps), err)
	}
	for _, want := range []string{
		"lcb: 3 records read, 2 problems (lcb 2), 1 skipped",
		"skipped 1: public tests only (no hidden tests), e.g. " + fixture + ":3",
		"leaving out --require-hidden-tests keeps them",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "public tests only: ") {
		t.Errorf("no kept problem lacks hidden tests, yet:\n%s", stderr)
	}
	// Without the flag the same problem is kept and flagged.
	stdout, stderr, err = runImportCLI(t, "lcb", "--since", "", fixture)
	if ps, _ := problems.Read(strings.NewReader(stdout), "stdout"); err != nil || len(ps) != 3 || !strings.Contains(stderr, "public tests only: 1 of 3 problems have no hidden tests") {
		t.Errorf("without the flag: %d problems, %v\n%s", len(ps), err, stderr)
	}
	if _, _, err := runImportCLI(t, "lcb", "--public-only", "--require-hidden-tests", fixture); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "--public-only") {
		t.Errorf("--public-only --require-hidden-tests: %v, want a usage error", err)
	}
}

// TestImportKeptNothing: for every kind, an import that keeps no problem
// fails, writes nothing (an existing --out file stays as it was), and says
// why: what it read, each skip reason with its count, and the flag that
// would keep the records (or that none would).
func TestImportKeptNothing(t *testing.T) {
	lcb := benchdata.Path(t, "lcb/lcb_sample.jsonl")
	mmlu := benchdata.Path(t, "mmlu/mmlu_math.jsonl")
	noQuestion := `{"question":"Compute 2+2","type":"abstract_algebra","choices":["1","2","3","4"],"answer":3}` + "\n"
	gpqaHeader := "Question,Correct Answer,Incorrect Answer 1,Incorrect Answer 2,Incorrect Answer 3,Record ID\n"
	hle := `{"id":"h1","question":"Q1?","image":"","answer":"4","answer_type":"exactMatch","category":"Math"}` + "\n" +
		`{"id":"h2","question":"Q2?","image":"","answer":"O(1)","answer_type":"exactMatch","category":"Computer Science/AI"}` + "\n"
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"aime empty input", []string{"aime", writeFile(t, "aime2024.jsonl", "\n\n")},
			[]string{"aime: 0 records read, 0 problems, 0 skipped", "the input holds no records"}},
		{"mmlu subjects", []string{"mmlu", "--subjects", "anatomy", mmlu},
			[]string{"mmlu: 1064 records read, 0 problems, 1064 skipped", "skipped 1064: subject not selected",
				"--subjects abstract_algebra,anatomy,college_mathematics,elementary_mathematics,high_school_mathematics,high_school_statistics keeps them"}},
		{"mmlu-abstain recipe", []string{"mmlu-abstain", writeFile(t, "mmlu.jsonl", noQuestion)},
			[]string{"skipped 1: no final question sentence (AbstentionBench recipe)", "no flag of triage import mmlu-abstain keeps these records"}},
		{"gpqa empty csv", []string{"gpqa", writeFile(t, "gpqa.csv", gpqaHeader)},
			[]string{"gpqa: 0 records read, 0 problems", "the input holds no records"}},
		{"gpqa-abstain recipe", []string{"gpqa-abstain", writeFile(t, "gpqa.csv", gpqaHeader+"Compute 2+2,4,1,2,3,rec1\n")},
			[]string{"skipped 1: no final question sentence (AbstentionBench recipe)", "no flag of triage import gpqa-abstain keeps these records"}},
		{"lcb default window", []string{"lcb", lcb},
			[]string{"lcb: 16 records read, 0 problems, 16 skipped", "skipped 16: contest_date before 2025-01-01, e.g. " + lcb + ":1 (2727, 2023-05-13)",
				"--since 2023-05-07 keeps them"}},
		{"lcb until", []string{"lcb", "--since", "", "--until", "2023-01-01", lcb},
			[]string{"skipped 16: contest_date on or after 2023-01-01", "--until 2023-10-18 keeps them"}},
		{"lcb hidden tests", []string{"lcb", "--since", "2023-01-01", "--require-hidden-tests", lcb},
			[]string{"skipped 16: public tests only (no hidden tests)", "leaving out --require-hidden-tests keeps them"}},
		{"hle category", []string{"hle", "--category", "Physics", writeFile(t, "hle.jsonl", hle)},
			[]string{"skipped 2: category not selected", "--category 'Computer Science/AI,Math,Physics' keeps them"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.jsonl")
			if err := os.WriteFile(out, []byte("previous\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			args := append([]string{tt.args[0], "--out", out}, tt.args[1:]...)
			stdout, _, err := runImportCLI(t, args...)
			if err == nil || errors.Is(err, ErrUsage) {
				t.Fatalf("err %v, want a failure that is not a usage error", err)
			}
			for _, want := range append([]string{"import " + tt.args[0] + ": kept no problems, nothing written"}, tt.want...) {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error lacks %q:\n%v", want, err)
				}
			}
			if b, _ := os.ReadFile(out); string(b) != "previous\n" || stdout != "" {
				t.Errorf("output touched: %q, stdout %q", b, stdout)
			}
			if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 1 {
				t.Errorf("temporary files left: %v", entries)
			}
		})
	}
}

func TestImportFromStdin(t *testing.T) {
	env, out, _ := testEnv(nil)
	env.Stdin = strings.NewReader(`{"prompt":"What is 2+3?\nPlease reason step by step, and put your final answer within \\boxed{}.","answer":5}` + "\n")
	if err := Run(context.Background(), []string{"import", "aime", "--year", "2031", "-"}, env); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != `{"id":"2031-I-1","dataset":"aime","text":"What is 2+3?","grading":{"kind":"math","answer":"5","integer":true}}`+"\n" {
		t.Errorf("stdout %q", got)
	}
}

func TestImportMalformedWritesNothing(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.jsonl")
	if err := os.WriteFile(out, []byte("previous\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	in := writeFile(t, "aime2024.jsonl", `{"problem":"P","answer":"7","url":"x/2024_AIME_I_Problems/Problem_1"}`+"\n"+
		`{"problem":"Q","answer":"x","url":"x/2024_AIME_I_Problems/Problem_2"}`+"\n"+
		`{"problem":"R","answer":"-3","url":"x/2024_AIME_I_Problems/Problem_3"}`+"\n")
	stdout, _, err := runImportCLI(t, "aime", "--out", out, in)
	if err == nil || errors.Is(err, ErrUsage) {
		t.Fatalf("err %v, want a data error", err)
	}
	for _, want := range []string{in + `:2: answer: must be an integer, got "x"`, in + `:3: answer: must be an integer, got "-3"`, "nothing written"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if b, _ := os.ReadFile(out); string(b) != "previous\n" || stdout != "" {
		t.Errorf("output touched: %q, stdout %q", b, stdout)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestImportUsage(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"nope", "x"},
		{"aime"},
		{"gpqa", "--year", "2024", "x.csv"}, // --year is AIME's
		{"lcb", "--since", "January", "x.jsonl"},
	} {
		if _, _, err := runImportCLI(t, args...); !errors.Is(err, ErrUsage) {
			t.Errorf("import %q: err %v, want a usage error", args, err)
		}
	}
	stdout, _, err := runImportCLI(t, "--help")
	if err != nil || !strings.Contains(stdout, "mmlu-abstain") || !strings.Contains(stdout, "triage import KIND [flags] FILE...") {
		t.Errorf("help: %v\n%s", err, stdout)
	}
	_, stderr, err := runImportCLI(t, "hle", "-h")
	if err != nil || !strings.Contains(stderr, "-category") {
		t.Errorf("hle -h: %v\n%s", err, stderr)
	}
	if _, _, err := runImportCLI(t, "aime", filepath.Join(t.TempDir(), "missing.jsonl")); err == nil || errors.Is(err, ErrUsage) {
		t.Errorf("missing file: %v", err)
	}
}

func TestImportFlagsAfterFiles(t *testing.T) {
	mmlu := benchdata.Path(t, "mmlu/mmlu_math.jsonl")
	before, _, err := runImportCLI(t, "mmlu", "--shuffle", "--seed", "3", mmlu)
	if err != nil {
		t.Fatal(err)
	}
	after, _, err := runImportCLI(t, "mmlu", mmlu, "--shuffle", "--seed", "3")
	if err != nil || after != before || !strings.Contains(after, `"shuffle":{"seed":3,`) {
		t.Fatalf("flags after the file: %v, same output %v", err, after == before)
	}
	// After "--" everything is a file, even a name starting with "-".
	dir := t.TempDir()
	odd := filepath.Join(dir, "-odd.jsonl")
	if err := os.WriteFile(odd, []byte(`{"prompt":"Q?","answer":1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	stdout, _, err := runImportCLI(t, "aime", "--year", "2030", "--", "-odd.jsonl")
	if err != nil || !strings.Contains(stdout, `"id":"2030-I-1"`) {
		t.Fatalf("after --: %v, %q", err, stdout)
	}
	stdout, _, err = runImportCLI(t, "aime", "-odd.jsonl")
	if !errors.Is(err, ErrUsage) {
		t.Fatalf("without --: %v, %q", err, stdout)
	}
}
