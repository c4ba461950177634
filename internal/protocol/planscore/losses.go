package planscore

import (
	"context"

	"github.com/triage-eval/triage/internal/protocol/execution"
	"github.com/triage-eval/triage/internal/protocol/knapsack"
	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/pool"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// plannedItems returns each item's allocation in the normalized plan (0 for
// an item the plan does not attempt), index for index with in.Items.
func plannedItems(in Input) []int64 {
	index := make(map[string]int, len(in.Items))
	for i, it := range in.Items {
		index[it.ID] = i
	}
	alloc := make([]int64, len(in.Items))
	for _, st := range in.Plan {
		if i, ok := index[st.ID]; ok && st.Tokens > 0 {
			alloc[i] = st.Tokens
		}
	}
	return alloc
}

// plannedValue is V_S: the knapsack optimum over the planned set S at the
// budget (SPEC §5, regret decomposition).
func plannedValue(items []pool.Item, alloc []int64, budget int64, states *knapsack.StateBudget) (float64, error) {
	n := 0
	for _, a := range alloc {
		if a > 0 {
			n++
		}
	}
	set := make([]pool.Item, 0, n) // one allocation, not one per doubling
	for i, it := range items {
		if alloc[i] > 0 {
			set = append(set, it)
		}
	}
	sol, err := knapsack.SolveWithin(context.Background(), set, budget, states)
	return sol.Value, err
}

// regimeValues returns V_U and V_E of the plan: the Executor's values where
// in.Values has them (so the decomposition sums to the same R̃ as the
// regimes' scores), else by executing the plan on the items.
func regimeValues(in Input, alloc []int64) (vu, ve float64) {
	var haveU, haveE bool
	for _, v := range in.Values {
		switch v.Regime {
		case vocab.Advisory:
			vu, haveU = v.Value, true
		case vocab.Enforced:
			ve, haveE = v.Value, true
		}
	}
	if haveU && haveE {
		return vu, ve
	}
	p, err := execution.NewPool(in.Items)
	if err != nil { // an invalid pool (a repeated id): only the given values
		return vu, ve
	}
	plan := execution.Normalize(p, in.Plan)
	if !haveU {
		vu = execution.RunAdvisory(p, plan, in.Budget).Value
	}
	if !haveE {
		ve = execution.RunEnforced(p, plan, in.Budget).Value
	}
	return vu, ve
}

// diagnose computes the plan diagnostics from the items and allocations.
func diagnose(items []pool.Item, alloc []int64) metrics.Diagnostics {
	planned := make([]metrics.PlannedItem, len(items))
	for i, it := range items {
		planned[i] = metrics.PlannedItem{Tokens: alloc[i], Cost: it.Cost, Solvable: it.Gain() > 0}
	}
	return metrics.Diagnose(planned)
}
