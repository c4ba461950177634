package knapsack

import (
	"context"
	"fmt"
	"math"

	"github.com/triage-eval/triage/internal/protocol/pool"
)

// Solution is an optimal selection.
type Solution struct {
	// Value is Σ v_i·y_i over Chosen, computed with pool.SumGain.
	Value float64
	// Cost is Σ c_i over Chosen.
	Cost int64
	// Chosen holds indices into items, in plan order: cost ascending, ties
	// by index ascending. It is never nil.
	Chosen []int
}

// Solve returns an optimal 0–1 knapsack selection:
// max Σ v_i y_i x_i s.t. Σ c_i x_i ≤ budget.
//
// Only solvable items (Correct and Value > 0) are ever chosen. Solve returns
// an error for a negative budget, a non-positive cost, a solvable item whose
// value is not finite, or solvable costs whose sum overflows int64, and
// ctx.Err() when ctx is cancelled before or during the search.
func Solve(ctx context.Context, items []pool.Item, budget int64) (Solution, error) {
	return SolveWithin(ctx, items, budget, nil)
}

// SolveWithin is Solve with the general method's work bounded by states
// (nil: unbounded, as Solve). The general method charges each stage the
// number of Pareto states it starts from; when states is spent it stops and
// returns a *StateLimitError. The other methods, which are O(n log n) at
// worst, charge nothing. Several calls may share one StateBudget, e.g. the
// budgets of one request.
func SolveWithin(ctx context.Context, items []pool.Item, budget int64, states *StateBudget) (Solution, error) {
	chosen, err := choose(ctx, items, budget, states, nil)
	if err != nil {
		return Solution{}, err
	}
	sortPlan(items, chosen)
	return newSolution(items, chosen), nil
}

// ValueWithin returns SolveWithin(ctx, items, budget, states).Value, with
// the same errors and the same charge to states, without ordering the chosen
// items into a plan (for callers that want only the optimum's value).
func ValueWithin(ctx context.Context, items []pool.Item, budget int64, states *StateBudget) (float64, error) {
	var buf [64]int // the indices of a small pool, on the stack
	chosen, err := choose(ctx, items, budget, states, buf[:0])
	if err != nil {
		return 0, err
	}
	return chosenValue(items, chosen), nil
}

// choose returns the indices of an optimal selection, in no particular
// order, or SolveWithin's error; they are in buf when it is large enough.
func choose(ctx context.Context, items []pool.Item, budget int64, states *StateBudget, buf []int) ([]int, error) {
	if budget < 0 {
		return nil, fmt.Errorf("knapsack: negative budget %d", budget)
	}
	if len(items) > math.MaxInt32 {
		return nil, fmt.Errorf("knapsack: %d items exceed the supported maximum", len(items))
	}
	solvable, total, uniform, err := scan(items, buf)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	switch {
	case total <= budget:
		return solvable, nil // Everything solvable fits.
	case uniform:
		return solveUniform(items, solvable, budget), nil
	default:
		return solveGeneral(ctx, items, solvable, budget, states)
	}
}

// solvable reports whether choosing it can add value.
func solvable(it pool.Item) bool {
	return it.Correct && it.Value > 0
}

// scan validates items and returns the indices of the solvable ones in
// ascending order, the sum of their costs, and whether they all share one
// value (bit for bit).
func scan(items []pool.Item, buf []int) (idx []int, total int64, uniform bool, err error) {
	idx = buf[:0]
	if cap(buf) < len(items) {
		idx = make([]int, 0, len(items))
	}
	uniform = true
	var first uint64
	for i, it := range items {
		if it.Cost <= 0 {
			return nil, 0, false, fmt.Errorf("knapsack: item %d (%q) has non-positive cost %d", i, it.ID, it.Cost)
		}
		if !solvable(it) {
			continue
		}
		if math.IsInf(it.Value, 0) {
			return nil, 0, false, fmt.Errorf("knapsack: item %d (%q) has non-finite value", i, it.ID)
		}
		if total > math.MaxInt64-it.Cost {
			return nil, 0, false, fmt.Errorf("knapsack: total cost of solvable items overflows int64")
		}
		total += it.Cost
		bits := math.Float64bits(it.Value)
		if len(idx) == 0 {
			first = bits
		} else if bits != first {
			uniform = false
		}
		idx = append(idx, i)
	}
	return idx, total, uniform, nil
}

// newSolution builds the Solution for the chosen indices, which must already
// be in plan order. The value is summed by pool.SumGain.
func newSolution(items []pool.Item, chosen []int) Solution {
	if len(chosen) == 0 {
		return Solution{Chosen: []int{}}
	}
	mark := make([]bool, len(items))
	var cost int64
	for _, i := range chosen {
		mark[i] = true
		cost += items[i].Cost
	}
	return Solution{Value: pool.SumGain(items, mark), Cost: cost, Chosen: chosen}
}

// chosenValue is newSolution(items, chosen).Value: pool.SumGain over a mark
// per item, held on the stack for up to 64 items.
func chosenValue(items []pool.Item, chosen []int) float64 {
	var buf [64]bool
	var mark []bool
	if len(items) <= len(buf) {
		mark = buf[:len(items)]
	} else {
		mark = make([]bool, len(items))
	}
	for _, i := range chosen {
		mark[i] = true
	}
	return pool.SumGain(items, mark)
}
