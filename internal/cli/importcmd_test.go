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

	// LCB's default window skips the 2023–24 sample; --since takes it all.
	stdout, stderr, err = runImportCLI(t, "lcb", benchdata.Path(t, "lcb/lcb_sample.jsonl"))
	if err != nil || stdout != "" || !strings.Contains(stderr, "skipped 16: contest_date before 2025-01-01") {
		t.Fatalf("lcb default: %v\n%q\n%s", err, stdout, stderr)
	}
	stdout, _, err = runImportCLI(t, "lcb", "--since", "2023-01-01", benchdata.Path(t, "lcb/lcb_sample.jsonl"))
	if ps, rerr := problems.Read(strings.NewReader(stdout), "stdout"); err != nil || rerr != nil || len(ps) != 16 {
		t.Fatalf("lcb --since: %v, %v", err, rerr)
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
