package orchestrator_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/phase0/solving"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/runs/work"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/services/executor"
)

// TestBaselineSamples runs Phase 0 with baseline.samples 3, then 4,
// through an in-process Executor: progress counts calls, the log names
// each sample, raising k makes only the missing samples, and
// LoadConfigSamples gives each item's samples in order, sample 1 first.
func TestBaselineSamples(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	// Call n answers 100+n tokens, right on even calls.
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(n int, _ llmtest.Recorded) llmtest.Reply {
		answer := "1"
		if n%2 == 0 {
			answer = "42"
		}
		return llmtest.OpenAI(llmtest.Completion{Content: "Answer: " + answer, CompletionTokens: 100 + n})
	}))
	var probs strings.Builder
	for _, d := range []string{"alpha", "beta"} {
		for i := range 3 {
			fmt.Fprintf(&probs, `{"id":"%s-%d","dataset":"%s","text":"Compute %s %d.","grading":{"kind":"math","answer":"42","integer":true}}`+"\n", d, i, d, d, i)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "problems.jsonl"), []byte(probs.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(dir, "run.yaml")
	if err := os.WriteFile(cfgPath, []byte("run_store: run.db\nground_truth_store: gt.db\nproblems: [problems.jsonl]\n"+
		"solvers: [{model: m, mode: extended, endpoint: q}]\nbaseline: {samples: 3, concurrency: 2}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := orchestrator.LoadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	gt, err := groundtruth.Open(ctx, cfg.Path(cfg.GroundTruthStore))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gt.Close() })
	b := &executor.Baseline{
		Endpoints: map[string]llm.Endpoint{"q": {Name: "q", BaseURL: srv.URL(), Model: "m", Mode: "extended", MaxAttempts: 1, Timeout: 5 * time.Second}},
		Clients:   llm.NewClients(),
		Solver:    solving.New(grading.New(nil, nil), time.Now),
	}
	exec := triagev1.NewExecutorServiceClient(servertest.Start(t, nil,
		server.Service{Name: "executor", Desc: &triagev1.ExecutorService_ServiceDesc, Impl: executor.New(gt, time.Now, executor.WithBaseline(b))}))

	tests := []struct {
		samples                int
		total, skipped, solved int64
		logSamples             []int
	}{
		{3, 18, 0, 18, []int{1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3}},
		{3, 18, 18, 0, nil},
		{4, 24, 18, 6, []int{4, 4, 4, 4, 4, 4}},
	}
	for _, tc := range tests {
		cfg.Baseline.Samples = tc.samples
		var log bytes.Buffer
		p := &work.Progress{}
		before := srv.Count()
		sums, err := orchestrator.RunBaseline(ctx, cfg, exec, orchestrator.BaselineOptions{Log: &log}, p)
		if err != nil {
			t.Fatalf("samples %d: %v", tc.samples, err)
		}
		if p.Total.Load() != tc.total || p.Skipped.Load() != tc.skipped || p.Done.Load() != tc.total || p.LLMCalls.Load() != tc.solved {
			t.Errorf("samples %d: progress total %d, skipped %d, done %d, calls %d; want %d, %d, %d, %d", tc.samples,
				p.Total.Load(), p.Skipped.Load(), p.Done.Load(), p.LLMCalls.Load(), tc.total, tc.skipped, tc.total, tc.solved)
		}
		if s := sums[0]; s.Total != int(tc.total) || s.Skipped != int(tc.skipped) || s.Samples != tc.samples || s.Summary.GetSolved() != int32(tc.solved) {
			t.Errorf("samples %d: summary %+v", tc.samples, s)
		}
		// The check call, then one call per sample made.
		if got := srv.Count() - before; got != 1+int(tc.solved) {
			t.Errorf("samples %d: %d model calls, want %d", tc.samples, got, 1+tc.solved)
		}
		var logged []int
		for _, l := range strings.Split(strings.TrimSpace(log.String()), "\n") {
			if l == "" {
				continue
			}
			var line struct{ Sample int }
			if err := json.Unmarshal([]byte(l), &line); err != nil {
				t.Fatal(err)
			}
			logged = append(logged, line.Sample)
		}
		slices.Sort(logged)
		if !slices.Equal(logged, tc.logSamples) {
			t.Errorf("samples %d: log lines of samples %v, want %v", tc.samples, logged, tc.logSamples)
		}
	}

	// A sample stored without its ground truth is no item of the report.
	solver := groundtruth.Solver{Model: "m", Mode: groundtruth.ModeExtended}
	orphan := groundtruth.Record{Key: groundtruth.Key{Solver: solver, Dataset: "alpha", ProblemID: "alpha-9"},
		Cost: 5, CostRule: "completion", Gradeable: true, MeasuredAt: time.Now(), Sample: 2}
	if _, err := gt.Import(ctx, func(yield func(groundtruth.Record, error) bool) { yield(orphan, nil) }); err != nil {
		t.Fatal(err)
	}
	got, err := orchestrator.LoadConfigSamples(ctx, cfg, exec)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 6 {
		t.Fatalf("loaded %d items, want 6 (the sample without a ground truth left out)", len(got))
	}
	for _, d := range []string{"alpha", "beta"} {
		stored, err := gt.GetSamples(ctx, solver, d, []string{d + "-0", d + "-1", d + "-2"})
		if err != nil {
			t.Fatal(err)
		}
		for id, rs := range stored {
			var want []orchestrator.ItemSample
			for _, r := range rs {
				want = append(want, orchestrator.ItemSample{Cost: r.Cost, Correct: r.Correct, Gradeable: r.Gradeable})
			}
			key := orchestrator.ItemKey{Model: "m", Mode: "extended", Dataset: d, ProblemID: id}
			if !slices.Equal(got[key], want) || len(want) != 4 || rs[0].Sample != 0 || rs[3].Sample != 4 {
				t.Errorf("%s: loaded %+v, stored %+v", id, got[key], rs)
			}
		}
	}

	// A stale sample is no measurement: alpha-0's sample 3 says it measured
	// another problem, and beta-1's text changed since all its samples.
	rs, err := gt.GetSamples(ctx, solver, "alpha", []string{"alpha-0"})
	if err != nil || len(rs["alpha-0"]) != 4 || rs["alpha-0"][0].ProblemSHA256 == "" {
		t.Fatalf("alpha-0's samples: %+v, %v; want 4, stamped with their problem's digest", rs, err)
	}
	other := rs["alpha-0"][2]
	other.ProblemSHA256 = strings.Repeat("0", 64)
	if _, err := gt.Import(ctx, func(yield func(groundtruth.Record, error) bool) { yield(other, nil) }); err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(probs.String(), "Compute beta 1.", "Compute beta 1, again.", 1)
	if err := os.WriteFile(filepath.Join(dir, "problems.jsonl"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err = orchestrator.LoadConfigSamples(ctx, cfg, exec); err != nil {
		t.Fatal(err)
	}
	alpha0 := got[orchestrator.ItemKey{Model: "m", Mode: "extended", Dataset: "alpha", ProblemID: "alpha-0"}]
	if _, ok := got[orchestrator.ItemKey{Model: "m", Mode: "extended", Dataset: "beta", ProblemID: "beta-1"}]; len(got) != 5 || ok || len(alpha0) != 3 {
		t.Errorf("loaded %d items (beta-1 among them: %v), alpha-0 with %d samples; want 5 items without beta-1, alpha-0 with 3", len(got), ok, len(alpha0))
	}
}
