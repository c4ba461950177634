package planscore

import (
	"github.com/triage-eval/triage/internal/protocol/execution"
	"github.com/triage-eval/triage/internal/protocol/knapsack"
	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/pool"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// Input is one plan's outcome on one pool at one budget.
type Input struct {
	// Items are the pool's gradeable items with the solver's ground truth,
	// in pool order; nil when only the numbers are known (a stored record).
	Items []pool.Item
	// Unsolvable marks, index for index with Items, the injected
	// unsolvable items (U of SPEC §5). Nil for a pool without injection:
	// D and W are then not computed.
	Unsolvable []bool
	// Plan is the plan as the Executor normalized it (allocations > 0,
	// known ids, each once).
	Plan []execution.Step
	// Budget is B, the budget the plan was executed at; with Items it
	// gives V_S of the regret decomposition.
	Budget int64
	// States bounds the knapsack search for V_S (nil: unbounded); callers
	// that score untrusted pools pass one (knapsack.SolveWithin).
	States *knapsack.StateBudget
	// Oracle and Random are V_oracle and V_random at the plan's budget.
	Oracle, Random float64
	// Values are V_M under each regime the plan was executed in, in the
	// order the scores are wanted.
	Values []RegimeValue
}

// RegimeValue is V_M of a plan under one regime.
type RegimeValue struct {
	// Regime is the execution regime.
	Regime vocab.Regime
	// Value is V_M.
	Value float64
}

// Result is a plan's score on one pool.
type Result struct {
	// Regimes are the scores under each regime of Input.Values, in its
	// order.
	Regimes []RegimeScore
	// Detection is D = |U \ S| / |U|: nil when the pool has no injection
	// or U is empty. Waste is W = Σ_{S∩U} a / Σ_S a: nil when the pool
	// has no injection, else 0 when the plan allocates nothing.
	Detection, Waste *float64
	// Losses is the regret decomposition (selection, order, enforcement;
	// SPEC §5), nil when Items is nil or V_oracle ≤ 0. PlannedValue is
	// V_S, the best regime-U value of a subset of the planned set that
	// fits the budget (set with Losses).
	Losses       *metrics.Losses
	PlannedValue float64
	// Diagnostics are the plan diagnostics (precision, recall, cost
	// forecast, under-allocation; SPEC §5); all nil when Items is nil.
	metrics.Diagnostics
}

// RegimeScore is a plan's score on one pool under one regime.
type RegimeScore struct {
	// Regime is the execution regime.
	Regime vocab.Regime
	// Value is V_M.
	Value float64
	// PoolScore holds η, R̃ (and whether it is defined), V_oracle and
	// whether the pool is degenerate (the same under every regime), as
	// metrics.Score computes them; it is included (Excluded is empty).
	metrics.PoolScore
}

// Score scores the plan of in on its pool. Unsolvable, when set, must have
// one mark per item. With Items it also decomposes the regret and
// diagnoses the plan; its only error is the knapsack's for V_S (invalid
// items, a spent States budget).
func Score(in Input) (Result, error) {
	out := Result{Regimes: make([]RegimeScore, len(in.Values))}
	for i, v := range in.Values {
		out.Regimes[i] = RegimeScore{Regime: v.Regime, Value: v.Value, PoolScore: metrics.Score(v.Value, in.Oracle, in.Random)}
	}
	if in.Items == nil {
		return out, nil
	}
	if in.Unsolvable != nil {
		out.Detection, out.Waste = detectionAndWaste(in)
	}
	var buf [smallPool]int64
	planned := plannedItems(in, buf[:0])
	out.Diagnostics = diagnose(in.Items, planned)
	if in.Oracle > 0 {
		vs, err := plannedValue(in.Items, planned, in.Budget, in.States)
		if err != nil {
			return Result{}, err
		}
		vu, ve := regimeValues(in, planned)
		if l, ok := metrics.Decompose(in.Oracle, vs, vu, ve); ok {
			out.Losses, out.PlannedValue = &l, vs
		}
	}
	return out, nil
}

// detectionAndWaste computes D (nil when U is empty) and W of SPEC §5 from
// the unsolvable marks and the normalized plan.
func detectionAndWaste(in Input) (*float64, *float64) {
	var buf [smallPool]metrics.Allocation
	all := buf[:0]
	if len(in.Items) > len(buf) {
		all = make([]metrics.Allocation, 0, len(in.Items))
	}
	steps := newIDIndex(in.Plan, stepID)
	for i, it := range in.Items {
		var tokens int64
		if k := steps.find(it.ID); k >= 0 {
			tokens = in.Plan[k].Tokens
		}
		all = append(all, metrics.Allocation{Unsolvable: in.Unsolvable[i], Tokens: tokens})
	}
	dw := new([2]float64) // one allocation for both
	dw[1] = metrics.Waste(all)
	if d, ok := metrics.Detection(all); ok {
		dw[0] = d
		return &dw[0], &dw[1]
	}
	return nil, &dw[1]
}
