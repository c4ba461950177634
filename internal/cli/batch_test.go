package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/phase0/benchdata"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/problems"
	"github.com/triage-eval/triage/internal/testkit/fakemodel"
)

// TestBatchBaselineMatchesSynchronous runs `triage baseline` on the AIME
// 2024 problems twice, synchronously and with baseline.batch: the ground
// truth is the same record for record but for latency and measurement
// time; batch mode makes no synchronous call but the preflight check and
// the retries of the one request its batch did not answer (problem 20,
// which the provider fails with a 500), and says so.
func TestBatchBaselineMatchesSynchronous(t *testing.T) {
	ctx := context.Background()
	run := func(t *testing.T, batch bool) (map[string]groundtruth.Record, *llmtest.Server, string) {
		dir := t.TempDir()
		env, _, logs := testEnv(nil)
		problemsFile := filepath.Join(dir, "aime.jsonl")
		if err := Run(ctx, []string{"import", "aime", "--out", problemsFile, benchdata.Path(t, "aime/aime2024.jsonl")}, env); err != nil {
			t.Fatalf("import: %v\n%s", err, logs)
		}
		probs, err := problems.ReadFile(problemsFile)
		if err != nil {
			t.Fatal(err)
		}
		model := &aimeModel{answers: map[string]string{}, order: map[string]int{}, solves: map[string]int{}}
		for k, p := range probs {
			var g struct{ Answer string }
			_ = json.Unmarshal(p.Grading, &g)
			model.answers[p.Text], model.order[p.Text] = g.Answer, k+1
		}
		// Batches end at once: the first poll finds them completed, so the
		// test waits for no backoff.
		srv := llmtest.NewServer(t, llmtest.WithHandler(model.reply),
			llmtest.WithBatch(llmtest.BatchBehavior{Validating: time.Nanosecond, InProgress: time.Nanosecond, Finalizing: time.Nanosecond}))
		eps := fakemodel.EndpointsFile(map[string]fakemodel.Endpoint{
			"q": {BaseURL: srv.URL(), Model: "qwen3-8b", Mode: "extended", Family: "qwen", MaxAttempts: 2, Timeout: "5s", Batch: batch},
		})
		cfg := fmt.Sprintf(`name: phase0
run_store: run.db
ground_truth_store: gt.db
problems: [aime.jsonl]
endpoints: endpoints.json
llm_cache: llm-cache.db
solvers: [{model: qwen3-8b, mode: extended, endpoint: q}]
pool_size: 15
alphas: [0.5]
strategies: [llm]
baseline: {concurrency: 3, batch: %v}
`, batch)
		for name, content := range map[string]string{"endpoints.json": eps, "run.yaml": cfg} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := Run(ctx, []string{"baseline", "--progress", "off", filepath.Join(dir, "run.yaml")}, env); err != nil {
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
		recs := map[string]groundtruth.Record{}
		for _, r := range page.Records {
			recs[r.ProblemID] = r
		}
		return recs, srv, logs.String()
	}
	synced, _, _ := run(t, false)
	batched, srv, logs := run(t, true)
	if len(synced) != 30 || len(batched) != 30 {
		t.Fatalf("stored %d synchronous and %d batch records, want 30", len(synced), len(batched))
	}
	for id, s := range synced {
		b := batched[id]
		b.Latency, b.MeasuredAt = s.Latency, s.MeasuredAt
		if diff := cmp.Diff(s, b); diff != "" {
			t.Errorf("%s: (-sync +batch)\n%s", id, diff)
		}
	}
	if n := srv.Count(); n != 3 {
		t.Errorf("batch mode made %d synchronous calls, want 3 (the check, and two attempts at problem 20)", n)
	}
	if srv.BatchSubmissions() != 1 {
		t.Errorf("%d batches, want 1", srv.BatchSubmissions())
	}
	if !strings.Contains(logs, "warning: batch Phase 0 of qwen3-8b/extended: batches batch_") || !strings.Contains(logs, "left 1 of 30 requests unanswered") || !strings.Contains(logs, "HTTP 500") {
		t.Errorf("no warning about the request the batch left:\n%s", logs)
	}
}
