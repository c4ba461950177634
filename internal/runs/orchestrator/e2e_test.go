package orchestrator_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/runs/report"
	"github.com/triage-eval/triage/internal/runs/work"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/runstore"
	"github.com/triage-eval/triage/internal/testkit/fakemodel"
	"github.com/triage-eval/triage/internal/testkit/golden"
	"github.com/triage-eval/triage/services/executor"
	"github.com/triage-eval/triage/services/oracle"
	"github.com/triage-eval/triage/services/planner"
)

// planningModel answers a planner prompt with a plan over its first half of
// problems, 900 tokens each, with a think block the repair strips.
func planningModel(_ int, r llmtest.Recorded) llmtest.Reply {
	ids := fakemodel.PlannerIDs(fakemodel.Parse(r).Prompt())
	return llmtest.OpenAI(llmtest.Completion{
		Content:      "<think>short ones first</think>\n" + fakemodel.Plan(fakemodel.FirstHalf(ids), 900),
		PromptTokens: 500, CompletionTokens: 80,
	})
}

// writeFixture writes a 2-dataset, 2-solver sample and returns the config.
func writeFixture(t *testing.T, dir, llmURL string) *orchestrator.Config {
	t.Helper()
	var probs, gt strings.Builder
	for _, d := range []string{"alpha", "beta"} {
		for i := range 12 {
			id := fmt.Sprintf("%s-%02d", d, i)
			fmt.Fprintf(&probs, `{"id":"%s","dataset":"%s","text":"[synthetic] problem %s %s"}`+"\n", id, d, id, strings.Repeat("x", i))
			for _, s := range []string{"standard", "extended"} {
				gradeable := !(d == "beta" && i == 3 && s == "standard")
				cost := 300 + 97*i
				if s == "extended" {
					cost *= 2
				}
				if !gradeable {
					cost = 0
				}
				fmt.Fprintf(&gt, `{"model":"m","mode":"%s","dataset":"%s","problem_id":"%s","cost":%d,"correct":%v,"gradeable":%v,"measured_at":"2026-01-01T00:00:00Z"}`+"\n",
					s, d, id, cost, gradeable && (i%3 != 0 || s == "extended"), gradeable)
			}
		}
	}
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("problems.jsonl", probs.String())
	write("gt.jsonl", gt.String())
	write("endpoints.json", fakemodel.EndpointsFile(map[string]fakemodel.Endpoint{
		"m-std": {BaseURL: llmURL, Model: "m-std", Mode: "standard", MaxAttempts: 2, Timeout: "5s"},
		"m-ext": {BaseURL: llmURL, Model: "m-ext", Mode: "extended", MaxAttempts: 2, Timeout: "5s"},
	}))
	write("run.yaml", `name: e2e
run_store: run.db
ground_truth_store: gt.db
problems: [problems.jsonl]
ground_truth: [gt.jsonl]
solvers:
  - {model: m, mode: standard, endpoint: m-std}
  - {model: m, mode: extended, endpoint: m-ext}
pool_size: 5
partition_seed: 7
alphas: [0.5, 1.0]
variants: [default, B]
strategies: [llm, random, all_in_order]
random: {samples: 200, seed: 3}
concurrency: 4
endpoints: endpoints.json
llm_cache: llm-cache.db
`)
	cfg, err := orchestrator.LoadConfig(filepath.Join(dir, "run.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// runOnce runs cfg with in-process services and returns the stored results.
func runOnce(t *testing.T, cfg *orchestrator.Config) runstore.Store {
	t.Helper()
	rs, _, err := runWith(t, cfg, orchestrator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// runWith runs cfg with in-process services and opts, and returns the run
// store, the run's progress and its error.
func runWith(t *testing.T, cfg *orchestrator.Config, opts orchestrator.Options) (runstore.Store, *work.Progress, error) {
	return runWithClients(t, cfg, opts, nil)
}

// runWithClients is runWith with a chance to replace the clients before
// the run (replace may be nil).
func runWithClients(t *testing.T, cfg *orchestrator.Config, opts orchestrator.Options, replace func(*orchestrator.Clients)) (runstore.Store, *work.Progress, error) {
	t.Helper()
	conn := startServices(t, cfg)
	rs, err := runstore.Open(context.Background(), cfg.Path(cfg.RunStore))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rs.Close() })
	p, err := runOn(t, cfg, opts, rs, conn, replace)
	return rs, p, err
}

// startServices serves cfg's Planner, Executor and Oracle in process until
// the test ends.
func startServices(t *testing.T, cfg *orchestrator.Config) grpc.ClientConnInterface {
	t.Helper()
	ctx := context.Background()
	gt, err := groundtruth.Open(ctx, cfg.Path(cfg.GroundTruthStore))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gt.Close() })
	cache, err := llm.OpenCache(ctx, cfg.Path(cfg.LLMCache))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cache.Close() })
	raw, _ := os.ReadFile(cfg.Path(cfg.Endpoints))
	var spec map[string]struct {
		BaseURL string `json:"base_url"`
		Mode    string `json:"mode"`
	}
	if err := json.Unmarshal(raw, &spec); err != nil {
		t.Fatal(err)
	}
	endpoints := map[string]llm.Endpoint{}
	for name, e := range spec {
		endpoints[name] = llm.Endpoint{Name: name, BaseURL: e.BaseURL, Model: name, Mode: e.Mode, MaxAttempts: 2, Timeout: 5 * time.Second}
	}
	pl := planner.New(planner.Config{Endpoints: endpoints, Cache: cache, Getenv: func(string) string { return "" }, Now: time.Now})
	conn := servertest.Start(t, nil,
		server.Service{Name: "planner", Desc: &triagev1.PlannerService_ServiceDesc, Impl: pl},
		server.Service{Name: "executor", Desc: &triagev1.ExecutorService_ServiceDesc, Impl: executor.New(gt, time.Now)},
		server.Service{Name: "oracle", Desc: &triagev1.OracleService_ServiceDesc, Impl: oracle.NewService()},
	)
	return conn
}

// runOn runs cfg on the run store rs with the in-process services of conn
// (see runWithClients).
func runOn(t *testing.T, cfg *orchestrator.Config, opts orchestrator.Options, rs runstore.Store, conn grpc.ClientConnInterface, replace func(*orchestrator.Clients)) (*work.Progress, error) {
	t.Helper()
	p := &work.Progress{}
	clients := orchestrator.Clients{
		Planner:  triagev1.NewPlannerServiceClient(conn),
		Executor: triagev1.NewExecutorServiceClient(conn),
		Oracle:   triagev1.NewOracleServiceClient(conn),
	}
	if replace != nil {
		replace(&clients)
	}
	r := orchestrator.NewRunner(cfg, clients, rs, time.Now, p, opts)
	return p, r.Run(context.Background())
}

// TestGridEndToEnd runs the fixture's grid with in-process services, then
// checks it in steps: the model calls, the score records, the report
// against the golden files, and a second run that finds everything done.
func TestGridEndToEnd(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(planningModel))
	dir := t.TempDir()
	cfg := writeFixture(t, dir, srv.URL())
	rs := runOnce(t, cfg)
	res, err := rs.Results(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	recs, accs := res.Records, res.Accuracy
	llmCalls := srv.Count()
	t.Run("one model call per llm cell", func(t *testing.T) {
		if want := 2 * 2 * 3 * 2 * 2; llmCalls != want {
			t.Errorf("the model was asked %d times, want %d (one per llm cell)", llmCalls, want)
		}
	})
	t.Run("score records", func(t *testing.T) { checkGridRecords(t, recs, accs) })
	t.Run("report matches the golden files", func(t *testing.T) {
		// Every input is seeded.
		rep := report.Build(recs, accs)
		var md, csv bytes.Buffer
		if err := rep.Markdown(&md); err != nil {
			t.Fatal(err)
		}
		if err := rep.CSV(&csv); err != nil {
			t.Fatal(err)
		}
		golden.File(t, filepath.Join("testdata", "e2e_report.md"), md.Bytes())
		golden.File(t, filepath.Join("testdata", "e2e_cells.csv"), csv.Bytes())
	})
	t.Run("a second run asks the model nothing", func(t *testing.T) {
		runOnce(t, cfg)
		if srv.Count() != llmCalls {
			t.Errorf("a resumed run asked the model %d more times", srv.Count()-llmCalls)
		}
		again, _ := rs.Results(context.Background())
		if len(again.Records) != len(recs) || again.Freshness.Stale != 0 || again.Freshness.Fresh*2 != len(recs) {
			t.Errorf("re-run changed the results: %d → %d records, freshness %+v", len(recs), len(again.Records), again.Freshness)
		}
	})
}

// checkGridRecords checks the fixture grid's score and accuracy records:
// how many, each within its bounds, and which items the pools hold.
func checkGridRecords(t *testing.T, recs []report.ScoreRecord, accs []report.Accuracy) {
	// 2 solvers × 2 datasets × 3 pools (12 problems / 5) × 2 α × (2 llm
	// variants + 2 strategies) cells, 2 regimes each.
	if want := 2 * 2 * 3 * 2 * 4 * 2; len(recs) != want {
		t.Fatalf("%d score records, want %d", len(recs), want)
	}
	if len(accs) != 4 {
		t.Errorf("%d accuracy rows, want 4", len(accs))
	}
	poolItems := map[string]int{}
	for _, r := range recs {
		if r.Excluded != "" {
			t.Errorf("cell excluded: %+v", r)
		}
		if r.Alpha == 1 && r.Oracle != r.Random {
			t.Errorf("α = 1: oracle %v ≠ random %v", r.Oracle, r.Random)
		}
		if r.Eta == nil || *r.Eta > 1+1e-9 || r.Value > r.Oracle+1e-9 {
			t.Errorf("value above the oracle: %+v", r)
		}
		if r.Alpha == 0.5 && r.Strategy == "random" && r.Regime == "U" {
			poolItems[r.Mode+"/"+r.Dataset] += r.PoolSize
		}
	}
	// beta-03 is ungradeable for the standard solver only: dropped from its
	// pool for that solver (SPEC §1).
	want := map[string]int{"standard/alpha": 12, "standard/beta": 11, "extended/alpha": 12, "extended/beta": 12}
	for k, n := range want {
		if poolItems[k] != n {
			t.Errorf("%s: %d gradeable items over the pools, want %d", k, poolItems[k], n)
		}
	}
}
