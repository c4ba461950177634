package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/phase0/benchdata"
	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/phase0/sandbox/sandboxtest"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/problems"
	"github.com/triage-eval/triage/internal/testkit/fakemodel"
)

// TestBaselineCheatingModelScoresZero runs `triage baseline` on the
// imported LiveCodeBench sample with two models: one answers every
// problem with a program that computes nothing and tries every known way
// to pass anyway or to run a command on the host; the other answers with
// correct programs. The cheater must get no problem right and create no
// file on the host; the honest model must get all of them right.
func TestBaselineCheatingModelScoresZero(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	env, _, logs := testEnv(nil)
	bench := benchdata.Path(t, "lcb/lcb_sample.jsonl")
	problemsFile := filepath.Join(dir, "lcb.jsonl")
	if err := Run(ctx, []string{"import", "lcb", "--since", "2023-01-01", "--out", problemsFile, bench}, env); err != nil {
		t.Fatalf("import: %v\n%s", err, logs)
	}
	probs, err := problems.ReadFile(problemsFile)
	if err != nil || len(probs) != 16 {
		t.Fatalf("imported %d problems, %v", len(probs), err)
	}
	marker := filepath.Join(dir, "escaped")
	solutions := sandboxtest.LCBSolutions()
	answers := map[string]map[string]string{"cheater-8b": {}, "honest-8b": {}} // model → problem text → program
	for _, p := range probs {
		spec, err := grading.ParseSpec(p.Grading)
		if err != nil || spec.Kind != grading.KindCode {
			t.Fatalf("%s: %v %+v", p.ID, err, spec)
		}
		if solutions[p.ID] == "" {
			t.Fatalf("no solution for %s", p.ID)
		}
		answers["cheater-8b"][p.Text] = sandboxtest.CheatProgram(spec.Code.FuncName, bench, marker)
		answers["honest-8b"][p.Text] = solutions[p.ID]
	}
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(_ int, r llmtest.Recorded) llmtest.Reply {
		q := fakemodel.Parse(r)
		if q.IsProbe() {
			return llmtest.OK("OK") // the baseline's endpoint check
		}
		for text, program := range answers[q.Model] {
			if strings.Contains(q.Prompt(), text) {
				return llmtest.VLLM(llmtest.Completion{Content: "Here is my solution.\n```python\n" + program + "```", PromptTokens: 300, CompletionTokens: 200})
			}
		}
		return llmtest.BadRequest("unknown model or problem")
	}))
	endpoints := fakemodel.EndpointsFile(map[string]fakemodel.Endpoint{
		"cheat":  {BaseURL: srv.URL(), Model: "cheater-8b", Mode: "extended", Family: "qwen", MaxAttempts: 1, Timeout: "10s"},
		"honest": {BaseURL: srv.URL(), Model: "honest-8b", Mode: "extended", Family: "qwen", MaxAttempts: 1, Timeout: "10s"},
	})
	config := `name: cheat
run_store: run.db
ground_truth_store: gt.db
problems: [lcb.jsonl]
endpoints: endpoints.json
llm_cache: llm-cache.db
solvers: [{model: cheater-8b, mode: extended, endpoint: cheat}, {model: honest-8b, mode: extended, endpoint: honest}]
pool_size: 15
alphas: [1]
strategies: [llm]
baseline: {concurrency: 4, code_concurrency: 2}
`
	for name, content := range map[string]string{"endpoints.json": endpoints, "run.yaml": config} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := Run(ctx, []string{"baseline", "--progress", "off", "--log", filepath.Join(dir, "baseline.jsonl"), filepath.Join(dir, "run.yaml")}, env); err != nil {
		t.Fatalf("baseline: %v\n%s", err, logs)
	}

	st, err := groundtruth.Open(ctx, filepath.Join(dir, "gt.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	page, err := st.List(ctx, groundtruth.ListQuery{PageSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	type tally struct{ gradeable, correct int }
	got := map[string]*tally{"cheater-8b": {}, "honest-8b": {}}
	for _, r := range page.Records {
		n := got[r.Solver.Model]
		if n == nil {
			t.Fatalf("record of an unknown solver: %+v", r)
		}
		if r.Gradeable {
			n.gradeable++
		} else {
			t.Errorf("%s %s not gradeable: %s", r.Solver.Model, r.ProblemID, r.Error)
		}
		if r.Correct {
			n.correct++
			if r.Solver.Model == "cheater-8b" {
				t.Errorf("the cheating program was graded correct on %s", r.ProblemID)
			}
		}
	}
	if c := got["cheater-8b"]; c.gradeable != 16 || c.correct != 0 {
		t.Errorf("cheater: %d gradeable, %d correct; want 16 and 0", c.gradeable, c.correct)
	}
	if h := got["honest-8b"]; h.gradeable != 16 || h.correct != 16 {
		t.Errorf("honest model: %d gradeable, %d correct; want 16 and 16\n%s", h.gradeable, h.correct, logs)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("a sandboxed program created %s on the host", marker)
	}
}
