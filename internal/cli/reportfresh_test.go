package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportJudgesTodaysInputs: a cost re-imported after a run makes its
// cells stale in the report at once — given the config or the run store —
// not only once a later run has laid the grid out again; the next run
// recomputes them, and the report is fresh again. The report once showed
// the old numbers, with no warning, until then.
func TestReportJudgesTodaysInputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("probs.jsonl", `{"id":"a1","dataset":"x","text":"What is 1+1?","grading":{"kind":"math","answer":"2"}}`+"\n"+
		`{"id":"a2","dataset":"x","text":"What is 2+2?","grading":{"kind":"math","answer":"4"}}`+"\n")
	write("gt.jsonl", `{"model":"m","mode":"standard","dataset":"x","problem_id":"a1","cost":100,"correct":true}`+"\n"+
		`{"model":"m","mode":"standard","dataset":"x","problem_id":"a2","cost":50,"correct":true}`+"\n")
	config := write("c.yaml", "problems: [probs.jsonl]\nground_truth: [gt.jsonl]\nground_truth_store: gt.db\nrun_store: run.db\nllm_cache: \"off\"\n"+
		"solvers: [{model: m, mode: standard}]\npool_size: 2\nstrategies: [random]\n")
	run := func(args ...string) string {
		t.Helper()
		env, out, logs := testEnv(nil)
		if err := Run(context.Background(), args, env); err != nil {
			t.Fatalf("triage %s: %v\n%s", strings.Join(args, " "), err, logs)
		}
		return out.String() + logs.String()
	}
	const stale = "4 cell(s) are stale"
	run("run", "--progress", "off", config)
	if out := run("report", config); strings.Contains(out, "stale") {
		t.Fatalf("a fresh run's report speaks of stale cells:\n%s", out)
	}
	run("ground-truth", "import", "--config", config, write("new.jsonl", `{"model":"m","mode":"standard","dataset":"x","problem_id":"a1","cost":300,"correct":true}`+"\n"))
	for _, arg := range []string{config, filepath.Join(dir, "run.db")} {
		if out := run("report", arg); !strings.Contains(out, stale) {
			t.Errorf("triage report %s after a cost changed does not say %q:\n%s", filepath.Base(arg), stale, out)
		}
	}
	run("run", "--progress", "off", config)
	if out := run("report", config); strings.Contains(out, "stale") {
		t.Errorf("the report after the run that recomputed them still speaks of stale cells:\n%s", out)
	}
}
