package orchestrator_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/protocol/pools"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// The fixture's grid: 2 solvers × 2 datasets × 3 pools × 2 α × 4
// strategy-variants; 2 of the 4 are llm.
const (
	fixtureCells    = 2 * 2 * 3 * 2 * 4
	fixtureLLMCells = 2 * 2 * 3 * 2 * 2
)

// editFile replaces old by new in a fixture file, once.
func editFile(t *testing.T, path, old, new string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), old) {
		t.Fatalf("%s holds no %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(raw), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestResumeRecomputesStaleCells re-measures one item after a run: only the
// cells of its (solver, pool) are stale, and only they are recomputed.
func TestResumeRecomputesStaleCells(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(planningModel))
	dir := t.TempDir()
	cfg := writeFixture(t, dir, srv.URL())
	runOnce(t, cfg)
	calls := srv.Count()

	// alpha-04 costs 300 + 97·4 = 688 tokens for the standard solver.
	editFile(t, filepath.Join(dir, "gt.jsonl"),
		`"mode":"standard","dataset":"alpha","problem_id":"alpha-04","cost":688`,
		`"mode":"standard","dataset":"alpha","problem_id":"alpha-04","cost":1688`)
	rs, p, err := runWith(t, cfg, orchestrator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// One group: 2 α × (2 variants + 2 strategies) cells, 2 × 2 of them llm
	// (their budgets changed, so their prompts did: the cache cannot answer).
	if p.Stale.Load() != 8 || p.Skipped.Load() != fixtureCells-8 || p.Done.Load() != fixtureCells {
		t.Errorf("stale %d, resumed %d, done %d; want 8 stale, %d resumed", p.Stale.Load(), p.Skipped.Load(), p.Done.Load(), fixtureCells-8)
	}
	if got := srv.Count() - calls; got != 4 {
		t.Errorf("the resumed run asked the model %d times, want 4", got)
	}
	res, err := rs.Results(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if f := res.Freshness; f.Fresh != fixtureCells || f.Stale != 0 || f.Pending != 0 || f.Outside != 0 || f.Unchecked {
		t.Errorf("freshness after the resumed run: %+v", f)
	}
	// A run that changes nothing recomputes nothing.
	_, p, err = runWith(t, cfg, orchestrator.Options{})
	if err != nil || p.Stale.Load() != 0 || p.Skipped.Load() != fixtureCells {
		t.Errorf("third run: %v, stale %d, resumed %d", err, p.Stale.Load(), p.Skipped.Load())
	}
}

// TestResumeRetriesFailedCells: a planner outage stores llm cells as
// "error"; the next run retries them, unless told to keep them.
func TestResumeRetriesFailedCells(t *testing.T) {
	var down atomic.Bool
	down.Store(true)
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(n int, r llmtest.Recorded) llmtest.Reply {
		if down.Load() {
			return llmtest.ServerError()
		}
		return planningModel(n, r)
	}))
	dir := t.TempDir()
	cfg := writeFixture(t, dir, srv.URL())
	// Every planner call failed: the run measured nothing and says so.
	rs, _, err := runWith(t, cfg, orchestrator.Options{})
	if failed := (*orchestrator.CallsFailedError)(nil); !errors.As(err, &failed) || failed.Calls != fixtureLLMCells {
		t.Fatalf("a run whose planner is down: %v, want all %d planner calls failed", err, fixtureLLMCells)
	}
	res, _ := rs.Results(context.Background())
	errors := 0
	for _, r := range res.Records {
		if r.Excluded == "error" {
			errors++
			if r.Eta != nil {
				t.Errorf("an excluded record stores η %v, want null", *r.Eta)
			}
		}
	}
	if errors != 2*fixtureLLMCells {
		t.Fatalf("%d error records, want %d (every llm cell, both regimes)", errors, 2*fixtureLLMCells)
	}

	down.Store(false)
	calls := srv.Count()
	_, p, err := runWith(t, cfg, orchestrator.Options{KeepErrors: true})
	if err != nil || p.Retried.Load() != 0 || srv.Count() != calls {
		t.Errorf("--keep-errors: %v, %d retried, %d calls; want none", err, p.Retried.Load(), srv.Count()-calls)
	}
	_, p, err = runWith(t, cfg, orchestrator.Options{})
	if err != nil || p.Retried.Load() != fixtureLLMCells || p.Skipped.Load() != fixtureCells-fixtureLLMCells {
		t.Errorf("resume: %v, %d retried, %d resumed; want %d retried", err, p.Retried.Load(), p.Skipped.Load(), fixtureLLMCells)
	}
	res, err = rs.Results(context.Background())
	if err != nil || len(res.Records) == 0 {
		t.Fatalf("results after the retry: %d records, %v", len(res.Records), err)
	}
	for _, r := range res.Records {
		if r.Excluded != "" {
			t.Errorf("still excluded after the retry: %+v", r)
		}
	}
}

// TestPreflightListsEveryProblem: with no ground truth at all, the run
// stops before any model call and names every (solver, dataset).
func TestPreflightListsEveryProblem(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(planningModel))
	dir := t.TempDir()
	cfg := writeFixture(t, dir, srv.URL())
	cfg.GroundTruth = nil
	cfg.Datasets = []string{"alpha", "beta", "gamma"}
	_, p, err := runWith(t, cfg, orchestrator.Options{})
	var pe *orchestrator.PreflightError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v, want a *PreflightError", err)
	}
	want := []string{
		`datasets: "gamma" is in none of the problem files`,
		"run.yaml:7: solvers[0] (m/standard): no gradeable ground truth for any of the 12 problems of alpha",
		"run.yaml:7: solvers[0] (m/standard): no gradeable ground truth for any of the 12 problems of beta",
		"run.yaml:8: solvers[1] (m/extended): no gradeable ground truth for any of the 12 problems of alpha",
		"run.yaml:8: solvers[1] (m/extended): no gradeable ground truth for any of the 12 problems of beta",
	}
	if len(pe.Problems) != len(want) {
		t.Fatalf("problems:\n%s", strings.Join(pe.Problems, "\n"))
	}
	for i, w := range want {
		if !strings.Contains(pe.Problems[i], w) {
			t.Errorf("problem %d = %q, want it to hold %q", i, pe.Problems[i], w)
		}
	}
	if srv.Count() != 0 || p.Total.Load() != 0 {
		t.Errorf("preflight failed but %d model calls and %d cells were made", srv.Count(), p.Total.Load())
	}
}

// TestPreflightChecksEndpoints: an endpoint the Planner does not know and
// one that plays the other mode are both reported before any call.
func TestPreflightChecksEndpoints(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(planningModel))
	cfg := writeFixture(t, t.TempDir(), srv.URL())
	cfg.Solvers[0].Endpoint = "m-ext"
	cfg.Solvers[1].Endpoint = "nope"
	_, _, err := runWith(t, cfg, orchestrator.Options{})
	var pe *orchestrator.PreflightError
	if !errors.As(err, &pe) || len(pe.Problems) != 2 ||
		!strings.Contains(pe.Problems[0], `solvers[0].endpoint (m/standard): endpoint "m-ext" runs mode extended, not standard`) ||
		!strings.Contains(pe.Problems[1], `solvers[1].endpoint (m/extended): endpoint "nope" is not one the planner knows (it has ["m-ext" "m-std"])`) {
		t.Fatalf("error %v", err)
	}
	if srv.Count() != 0 {
		t.Errorf("%d model calls before a failed preflight", srv.Count())
	}
}

// TestPreflightNamesAServiceThatDoesNotAnswer: an Oracle nobody serves
// stops the run before anything else.
func TestPreflightNamesAServiceThatDoesNotAnswer(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(planningModel))
	cfg := writeFixture(t, t.TempDir(), srv.URL())
	dead, err := grpc.NewClient("127.0.0.1:1", grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer dead.Close()
	_, _, err = runWithClients(t, cfg, orchestrator.Options{}, func(c *orchestrator.Clients) {
		c.Oracle = triagev1.NewOracleServiceClient(dead)
	})
	var pe *orchestrator.PreflightError
	if !errors.As(err, &pe) || len(pe.Problems) != 1 || !strings.HasPrefix(pe.Problems[0], "oracle service: Unavailable") {
		t.Fatalf("error %v; want a preflight error naming the oracle service", err)
	}
	if srv.Count() != 0 {
		t.Errorf("%d model calls", srv.Count())
	}
}

// TestPreflightChecksInjections: an injection from a dataset nobody has,
// or from one whose items are not unsolvable, stops the run.
func TestPreflightChecksInjections(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(planningModel))
	cfg := writeFixture(t, t.TempDir(), srv.URL())
	seed := uint64(1)
	cfg.Injection = []orchestrator.Injection{
		{Base: "alpha", Source: "nowhere", Ratios: []float64{0.5}, Seed: &seed, TwinSuffix: "-abstain"},
		{Base: "alpha", Source: "beta", Ratios: []float64{0.5}, Seed: &seed, TwinSuffix: "-abstain"},
	}
	_, _, err := runWith(t, cfg, orchestrator.Options{})
	var pe *orchestrator.PreflightError
	if !errors.As(err, &pe) || len(pe.Problems) != 2 ||
		!strings.HasPrefix(pe.Problems[0], `injection[0].source: "nowhere" is in none of the problem files`) ||
		!strings.HasPrefix(pe.Problems[1], "injection[1].source: 12 of the 12 problems of beta are not marked unsolvable") {
		t.Fatalf("error %v", err)
	}
}

// TestEmptyPoolMakesNoCall: a pool without a gradeable item for a solver is
// excluded as empty_pool without asking anyone.
func TestEmptyPoolMakesNoCall(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(planningModel))
	dir := t.TempDir()
	cfg := writeFixture(t, dir, srv.URL())
	var ids []string
	for i := range 12 {
		ids = append(ids, "alpha-"+twoDigits(i))
	}
	parts, err := pools.Partition("alpha", ids, cfg.PoolSize, cfg.PartitionSeed)
	if err != nil {
		t.Fatal(err)
	}
	gtPath := filepath.Join(dir, "gt.jsonl")
	raw, _ := os.ReadFile(gtPath)
	var lines []string
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		for _, id := range parts[0].ProblemIDs {
			if strings.Contains(line, `"mode":"extended","dataset":"alpha","problem_id":"`+id+`"`) {
				line = strings.Replace(strings.Replace(line, `"gradeable":true`, `"gradeable":false`, 1), `"correct":true`, `"correct":false`, 1)
				line = line[:strings.Index(line, `"cost":`)] + `"cost":0` + line[strings.Index(line, `,"correct"`):]
			}
		}
		lines = append(lines, line)
	}
	if err := os.WriteFile(gtPath, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rs, _, err := runWith(t, cfg, orchestrator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := fixtureLLMCells - 4; srv.Count() != want {
		t.Errorf("%d model calls, want %d (none for the empty pool's 4 llm cells)", srv.Count(), want)
	}
	res, _ := rs.Results(context.Background())
	empty := 0
	for _, r := range res.Records {
		if r.Excluded == orchestrator.ExcludedEmptyPool {
			empty++
			if r.Mode != "extended" || r.Dataset != "alpha" || r.Pool != 0 || r.Dropped != len(parts[0].ProblemIDs) || r.Eta != nil {
				t.Errorf("empty_pool record %+v", r)
			}
		}
	}
	if empty != 8*2 {
		t.Errorf("%d empty_pool records, want 16 (8 cells × 2 regimes)", empty)
	}
}

// TestUnsolvableItemsScoreZero: a ground-truth record that says an
// unsolvable problem was answered correctly enters the pool with y = 0 and
// is counted as a lucky guess.
func TestUnsolvableItemsScoreZero(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(planningModel))
	dir := t.TempDir()
	cfg := writeFixture(t, dir, srv.URL())
	// alpha-01 is correct for both solvers in the fixture.
	editFile(t, filepath.Join(dir, "problems.jsonl"), `{"id":"alpha-01","dataset":"alpha",`, `{"id":"alpha-01","dataset":"alpha","unsolvable":true,`)
	rs := runOnce(t, cfg)
	res, err := rs.Results(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, a := range res.Accuracy {
		if a.Dataset != "alpha" {
			continue
		}
		checked++
		wantCorrect := 7 // standard: i%3 != 0 gives 8 of 12, minus alpha-01
		if a.Mode == "extended" {
			wantCorrect = 11
		}
		if a.Unsolvable != 1 || a.LuckyGuesses != 1 || a.Correct != wantCorrect || a.Gradeable != 12 {
			t.Errorf("%s accuracy %+v; want %d correct of 12, 1 unsolvable, 1 lucky guess", a.Mode, a, wantCorrect)
		}
	}
	if checked != 2 {
		t.Errorf("%d accuracy rows for alpha, want one per solver (2)", checked)
	}
	// At α = 1 every item fits: V_oracle = Σ y over the pool, without alpha-01.
	total := map[string]float64{}
	for _, r := range res.Records {
		if r.Dataset == "alpha" && r.Alpha == 1 && r.Strategy == "random" && r.Regime == "U" {
			total[r.Mode] += r.Oracle
		}
	}
	if total["standard"] != 7 || total["extended"] != 11 {
		t.Errorf("Σ V_oracle at α = 1: %v; want standard 7, extended 11", total)
	}
}

func twoDigits(i int) string { return string([]byte{'0' + byte(i/10), '0' + byte(i%10)}) }
