package randomref

import (
	"fmt"
	"math"

	"github.com/triage-eval/triage/internal/protocol/pool"
)

// Estimate is V_random for one budget.
type Estimate struct {
	// Budget is the budget B the estimate is for.
	Budget int64
	// Mean is the estimate of V_random (the exact value for the exact method).
	Mean float64
	// StdErr is the standard error of Mean; 0 for Exact and whenever every
	// order gives the same value (every order fits, or no item fits).
	StdErr float64
	// Samples is the number of shuffles the Monte Carlo estimate stands for;
	// 0 for Exact.
	Samples int
}

// poolInfo holds the facts about a validated pool that both methods need.
type poolInfo struct {
	totalCost int64   // Σ c_i
	minCost   int64   // min c_i (0 for an empty pool)
	totalGain float64 // pool.TotalGain(items)
}

// inspect validates items (positive costs whose sum fits in int64, finite
// values) and summarizes them.
func inspect(items []pool.Item) (poolInfo, error) {
	var info poolInfo
	for i, it := range items {
		if it.Cost <= 0 {
			return poolInfo{}, fmt.Errorf("randomref: item %d (%q): cost %d is not positive", i, it.ID, it.Cost)
		}
		if math.IsNaN(it.Value) || math.IsInf(it.Value, 0) {
			return poolInfo{}, fmt.Errorf("randomref: item %d (%q): value %v is not finite", i, it.ID, it.Value)
		}
		if info.totalCost > math.MaxInt64-it.Cost {
			return poolInfo{}, fmt.Errorf("randomref: total cost overflows int64 at item %d (%q)", i, it.ID)
		}
		info.totalCost += it.Cost
		if i == 0 || it.Cost < info.minCost {
			info.minCost = it.Cost
		}
	}
	info.totalGain = pool.TotalGain(items)
	return info, nil
}

// checkBudget rejects negative budgets.
func checkBudget(b int64) error {
	if b < 0 {
		return fmt.Errorf("randomref: budget %d is negative", b)
	}
	return nil
}

// trivial reports whether every order gives the same value for budget b,
// and that value: pool.TotalGain when every order fits (Σc ≤ b, which
// includes the empty pool), 0 when no item fits (b < min c, including b = 0).
func (p poolInfo) trivial(b int64) (float64, bool) {
	switch {
	case b >= p.totalCost:
		return p.totalGain, true
	case b < p.minCost:
		return 0, true
	}
	return 0, false
}
