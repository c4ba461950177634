package orchestrator

import (
	"context"
	"fmt"
	"slices"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/protocol/budget"
	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/runs/report"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/problems"
)

// The calls a run would still make, found without making any: a quote
// (triage quote) renders them, counts their tokens and looks them up in
// the response cache. Each is found by the code that decides it for the
// run itself: what Phase 0 keeps (groundtruth.Kept), which cells are done
// (Runner.state), the request of a cell (Runner.planRequest).

// PendingSolve is one solver's Phase 0 calls still to make.
type PendingSolve struct {
	// Solver is the solver; its endpoint plays it.
	Solver Solver
	// Calls are the samples not kept in the ground-truth store, in the
	// order the Executor makes them: sample 1 of every problem, then
	// sample 2, and so on.
	Calls []PendingSample
	// Stored counts the samples whose stored record the baseline keeps.
	Stored int
}

// PendingSample is one Phase 0 call: sample Sample (1-based; 1 is the
// ground truth) of Problem.
type PendingSample struct {
	Problem problems.Problem
	Sample  int
}

// PendingBaseline returns, per solver of cfg in config order, the calls a
// baseline with opts would send to its model — baseline.samples per
// problem, less the samples stored that it keeps (each judged alone,
// groundtruth.StoredSamples.Pending, as the Executor judges them) —
// reading the stored samples through exec.
func PendingBaseline(ctx context.Context, cfg *Config, exec triagev1.ExecutorServiceClient, opts BaselineOptions) ([]PendingSolve, error) {
	list, err := baselineList(cfg)
	if err != nil {
		return nil, err
	}
	probs, err := cfg.LoadProblems()
	if err != nil {
		return nil, err
	}
	out := make([]PendingSolve, len(cfg.Solvers))
	for i, s := range cfg.Solvers {
		pending, kept, err := pendingSamples(ctx, exec, s, list, max(cfg.Baseline.Samples, 1), opts)
		if err != nil {
			return nil, err
		}
		out[i] = PendingSolve{Solver: s, Stored: kept}
		for _, c := range pending {
			out[i].Calls = append(out[i].Calls, PendingSample{Problem: probs[c.problem.GetDataset()][c.problem.GetId()], Sample: c.sample})
		}
	}
	return out, nil
}

// sampleCall is sample (1-based) of problem.
type sampleCall struct {
	problem *triagev1.Problem
	sample  int
}

// pendingSamples lists the calls a baseline of k samples per problem of
// list makes for s, sample by sample as the Executor orders them, reading
// what is stored through exec (the ground truth alone when k = 1, nothing
// when opts.Rerun), and counts the samples it keeps (a stale one never).
func pendingSamples(ctx context.Context, exec triagev1.ExecutorServiceClient, s Solver, list []*triagev1.Problem, k int, opts BaselineOptions) ([]sampleCall, int, error) {
	stored := map[string]map[string]groundtruth.StoredSamples{}
	if !opts.Rerun {
		for _, p := range list {
			d := p.GetDataset()
			if _, ok := stored[d]; ok {
				continue
			}
			var err error
			if stored[d], err = storedSamples(ctx, exec, s, d, k > 1); err != nil {
				return nil, 0, err
			}
		}
	}
	digests := make([]string, len(list))
	for i, p := range list {
		digests[i] = problems.Digest(problemOf(p))
	}
	var pending []sampleCall
	kept := 0
	for j := 1; j <= k; j++ {
		for i, p := range list {
			if !stored[p.GetDataset()][p.GetId()].Pending(j, digests[i], opts.Rerun, opts.KeepUngradeable) {
				kept++
				continue
			}
			pending = append(pending, sampleCall{p, j})
		}
	}
	return pending, kept, nil
}

// PendingPlan is one Phase 1 planner call a run would make.
type PendingPlan struct {
	// Solver plans (its endpoint is the planner), Dataset is the pool's.
	Solver  Solver
	Dataset string
	// Request is the CreatePlan request the run sends.
	Request *triagev1.CreatePlanRequest
	// Provisional says the pool has problems without ground truth for the
	// solver yet: Request then holds every problem of the pool and budget
	// 0, since the budget comes from Phase 0 costs; its tokens are an
	// estimate and it cannot be in the cache.
	Provisional bool
	// Phase0Costs are the solver's Phase 0 costs of the pool's gradeable
	// items (empty when none is measured).
	Phase0Costs []int64
}

// PendingPlans lays out the grid as Run does — the Planner's endpoints,
// the pools, each solver's ground truth through the Executor, the cells
// the run store holds — and returns the planner calls of the llm cells a
// run would compute now (not stored fresh), in grid order. It calls no
// model and not the Oracle (a budget is ⌊α · Σ c⌋ of the pool's items);
// the ground-truth files the config imports at the start of a run are not
// imported.
func (r *Runner) PendingPlans(ctx context.Context) ([]PendingPlan, error) {
	if !containsLLM(r.cfg) {
		return nil, nil
	}
	endpoints, _, err := r.checkEndpoints(ctx)
	if err != nil {
		return nil, err
	}
	l, err := r.layOut()
	if err != nil {
		return nil, err
	}
	stored, err := r.store.Cells(ctx)
	if err != nil {
		return nil, err
	}
	g, err := r.fillGrid(ctx, l, endpoints)
	if err != nil {
		return nil, err
	}
	var out []PendingPlan
	for _, c := range g.cells {
		if c.strategy != vocab.LLM {
			continue
		}
		grp := c.g
		if grp.unmeasured == 0 && len(grp.items) == 0 {
			continue // an empty pool: no call (runCell)
		}
		if grp.unmeasured == 0 && r.state(c, stored) == cellDone {
			continue
		}
		pp := PendingPlan{Solver: grp.solver, Dataset: grp.dataset, Provisional: grp.unmeasured > 0}
		var total int64
		for _, it := range grp.items {
			total += it.GetCost()
			pp.Phase0Costs = append(pp.Phase0Costs, it.GetCost())
		}
		if pp.Provisional {
			all := &group{solver: grp.solver, dataset: grp.dataset, pool: grp.pool, inj: grp.inj, texts: grp.texts}
			for _, id := range grp.ids() {
				all.items = append(all.items, &triagev1.GroundTruthItem{Id: id})
			}
			pp.Request = r.planRequest(cell{g: all, alpha: c.alpha, strategy: c.strategy, variant: c.variant}, 0)
		} else {
			b, err := budget.FromAlpha(c.alpha, total)
			if err != nil {
				return nil, fmt.Errorf("budget of %s: %w", c.key(), err)
			}
			pp.Request = r.planRequest(c, b)
		}
		out = append(out, pp)
	}
	return out, nil
}

// containsLLM reports whether the run makes llm plans.
func containsLLM(cfg *Config) bool {
	return slices.Contains(cfg.Strategies, vocab.LLM)
}

// CurrentGrid lays out the grid as Run would now — the Planner's
// endpoints, the pools, each solver's ground truth as the Executor holds it
// — and returns each cell's fingerprint by key and the base accuracy per
// (solver, dataset), without importing the config's ground-truth files,
// storing or calling anything else: what a report compares the stored
// cells with, so that a cell whose inputs changed since the last run (its
// ground truth re-imported, the config edited) is reported stale, not as
// it was.
func (r *Runner) CurrentGrid(ctx context.Context) (map[string]string, []report.Accuracy, error) {
	endpoints, _, err := r.checkEndpoints(ctx)
	if err != nil {
		return nil, nil, err
	}
	l, err := r.layOut()
	if err != nil {
		return nil, nil, err
	}
	g, err := r.fillGrid(ctx, l, endpoints)
	if err != nil {
		return nil, nil, err
	}
	fingerprints := make(map[string]string, len(g.cells))
	for _, c := range g.cells {
		fingerprints[c.key()] = c.fingerprint
	}
	return fingerprints, g.accuracy, nil
}
