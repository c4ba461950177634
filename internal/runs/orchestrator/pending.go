package orchestrator

import (
	"context"
	"fmt"
	"slices"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/protocol/budget"
	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/problems"
)

// The calls a run would still make, found without making any: a quote
// (triage quote) renders them, counts their tokens and looks them up in
// the response cache. Each is found by the code that decides it for the
// run itself: what Phase 0 keeps (groundtruth.Kept), which cells are done
// (Runner.state), the request of a cell (Runner.planRequest).

// PendingSolve is one solver's Phase 0 problems still to solve.
type PendingSolve struct {
	// Solver is the solver; its endpoint plays it.
	Solver Solver
	// Problems are those not kept in the ground-truth store.
	Problems []problems.Problem
	// Stored counts the problems whose stored record the baseline keeps.
	Stored int
}

// PendingBaseline returns, per solver of cfg in config order, the problems
// a baseline with opts would send to its model, reading the stored ground
// truth through exec.
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
		pending, kept, err := pendingFor(ctx, exec, s, list, opts)
		if err != nil {
			return nil, err
		}
		out[i] = PendingSolve{Solver: s, Stored: kept}
		for _, p := range pending {
			out[i].Problems = append(out[i].Problems, probs[p.GetDataset()][p.GetId()])
		}
	}
	return out, nil
}

// pendingFor drops from list the problems whose stored ground truth for s
// a baseline with opts keeps (groundtruth.Kept), reading it through exec,
// and says how many it dropped.
func pendingFor(ctx context.Context, exec triagev1.ExecutorServiceClient, s Solver, list []*triagev1.Problem, opts BaselineOptions) ([]*triagev1.Problem, int, error) {
	stored := map[string]map[string]*triagev1.GroundTruthRecord{}
	var pending []*triagev1.Problem
	kept := 0
	for _, p := range list {
		d := p.GetDataset()
		if _, ok := stored[d]; !ok {
			var err error
			if stored[d], err = ListGroundTruth(ctx, exec, s, d); err != nil {
				return nil, 0, err
			}
		}
		if rec, ok := stored[d][p.GetId()]; ok && groundtruth.Kept(rec.GetGradeable(), opts.Rerun, opts.KeepUngradeable) {
			kept++
			continue
		}
		pending = append(pending, p)
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
