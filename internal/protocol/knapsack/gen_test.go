package knapsack

import (
	"fmt"
	"math/rand/v2"

	"github.com/triage-eval/triage/internal/protocol/pool"
)

// newRand returns a deterministic PCG-backed generator.
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
}

// genInstance draws n items with costs uniform in [cmin, cmax], correct with
// probability pCorrect, and values from value (nil: all 1). The budget is
// ⌊alpha·Σc⌋.
func genInstance(r *rand.Rand, n int, cmin, cmax int64, pCorrect float64, value func(*rand.Rand) float64, alpha float64) ([]pool.Item, int64) {
	items := make([]pool.Item, n)
	var total int64
	for i := range items {
		v := 1.0
		if value != nil {
			v = value(r)
		}
		items[i] = pool.Item{
			ID:      fmt.Sprintf("p%d", i+1),
			Cost:    cmin + r.Int64N(cmax-cmin+1),
			Value:   v,
			Correct: r.Float64() < pCorrect,
		}
		total += items[i].Cost
	}
	return items, int64(alpha * float64(total))
}

// unitInterval draws uniformly from (0, 1].
func unitInterval(r *rand.Rand) float64 { return 1 - r.Float64() }

// solvableCost is Σ c_i over the solvable items.
func solvableCost(items []pool.Item) int64 {
	var total int64
	for _, it := range items {
		if solvable(it) {
			total += it.Cost
		}
	}
	return total
}
