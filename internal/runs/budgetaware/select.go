package budgetaware

import (
	"context"
	"fmt"
	"slices"

	"google.golang.org/protobuf/encoding/protojson"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/store/runstore"
)

// Item is one (solver, problem) to re-solve.
type Item struct {
	// Solver is the solver whose plan selected the problem.
	Solver orchestrator.Solver
	// Dataset, Pool and ProblemID locate the problem.
	Dataset   string
	Pool      int
	ProblemID string
	// Tokens is a_i > 0.
	Tokens int64
	// PlanFingerprint is the fingerprint of the α = 1 cell whose plan
	// selected the problem.
	PlanFingerprint string
}

// Selection is what the α = 1 plans selected.
type Selection struct {
	// Items are in solver, dataset, pool and plan order.
	Items []Item
	// Pools counts the α = 1 pools looked at; MissingPools those without a
	// usable plan (not run yet, planner error, unparseable).
	Pools, MissingPools int
	// Failures are Run's re-solves whose model call failed, by reason;
	// nil from Select.
	Failures *orchestrator.CallFailures
}

// Select reads the α = 1 llm plans of variant from the run store. A plan
// step is kept the way the Executor's normalization keeps it: known to the
// pool, first occurrence of its id, allocation > 0.
func Select(ctx context.Context, cfg *orchestrator.Config, rs runstore.Store, variant vocab.Variant) (Selection, error) {
	if !slices.Contains(cfg.Alphas, 1) {
		return Selection{}, fmt.Errorf("alphas: the run has no α = 1 plans to follow; add 1 to alphas and run it")
	}
	if !slices.Contains(cfg.Strategies, vocab.LLM) || !slices.Contains(cfg.Variants, variant) {
		return Selection{}, fmt.Errorf("strategies/variants: the run makes no llm plans with prompt variant %q", variant)
	}
	parts, err := rs.Pools(ctx)
	if err != nil {
		return Selection{}, err
	}
	datasets := make([]string, 0, len(parts))
	for d := range parts {
		datasets = append(datasets, d)
	}
	slices.Sort(datasets)
	var sel Selection
	for _, s := range cfg.Solvers {
		for _, d := range datasets {
			for _, p := range parts[d] {
				sel.Pools++
				stored, found, err := rs.Plan(ctx, orchestrator.CellKey(s, d, p.Index, 1, vocab.LLM, variant))
				if err != nil {
					return Selection{}, err
				}
				steps, ok := planSteps(stored.Plan, found)
				if !ok {
					sel.MissingPools++
					continue
				}
				inPool := map[string]bool{}
				for _, id := range p.ProblemIDs {
					inPool[id] = true
				}
				seen := map[string]bool{}
				for _, st := range steps {
					id := st.GetId()
					if !inPool[id] || seen[id] {
						continue
					}
					seen[id] = true
					if st.GetTokens() > 0 {
						sel.Items = append(sel.Items, Item{Solver: s, Dataset: d, Pool: p.Index, ProblemID: id, Tokens: st.GetTokens(), PlanFingerprint: stored.Fingerprint})
					}
				}
			}
		}
	}
	return sel, nil
}

// planSteps returns a stored plan's parsed steps, if it has any.
func planSteps(raw []byte, found bool) ([]*triagev1.PlanStep, bool) {
	if !found || len(raw) == 0 {
		return nil, false
	}
	var resp triagev1.CreatePlanResponse
	if err := protojson.Unmarshal(raw, &resp); err != nil {
		return nil, false
	}
	if resp.GetParsed().GetStatus() == triagev1.ParseStatus_PARSE_STATUS_UNPARSEABLE {
		return nil, false
	}
	return resp.GetParsed().GetPlan(), true
}
