package planscore

import (
	"context"

	"github.com/triage-eval/triage/internal/protocol/execution"
	"github.com/triage-eval/triage/internal/protocol/knapsack"
	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/pool"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// smallPool is the pool size up to which Score works in buffers on its own
// stack and finds plan ids in an idTable instead of a map: the pools of
// the paper (30 items) cost no allocation for either.
const smallPool = 64

// plannedItems returns each item's allocation in the normalized plan (0 for
// an item the plan does not attempt), index for index with in.Items, in
// buf when it is large enough. A step names the last item of its id.
func plannedItems(in Input, buf []int64) []int64 {
	var alloc []int64
	if n := len(in.Items); n <= cap(buf) {
		alloc = buf[:n]
		clear(alloc)
	} else {
		alloc = make([]int64, n)
	}
	items := newIDIndex(in.Items, itemID)
	for _, st := range in.Plan {
		if i := items.find(st.ID); i >= 0 && st.Tokens > 0 {
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
	set := items // S is the whole pool: the items themselves, in their order
	if n < len(items) {
		set = make([]pool.Item, 0, n) // one allocation, not one per doubling
		for i, it := range items {
			if alloc[i] > 0 {
				set = append(set, it)
			}
		}
	}
	v, err := knapsack.ValueWithin(context.Background(), set, budget, states)
	return v, err
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
	var buf [smallPool]metrics.PlannedItem
	var planned []metrics.PlannedItem
	if len(items) <= len(buf) {
		planned = buf[:len(items)]
	} else {
		planned = make([]metrics.PlannedItem, len(items))
	}
	for i, it := range items {
		planned[i] = metrics.PlannedItem{Tokens: alloc[i], Cost: it.Cost, Solvable: it.Gain() > 0}
	}
	return metrics.Diagnose(planned)
}
