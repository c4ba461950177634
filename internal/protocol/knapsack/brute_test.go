package knapsack

import (
	"context"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/pool"
)

// bruteForce returns the optimum over all 2^n subsets.
func bruteForce(items []pool.Item, budget int64) float64 {
	n := len(items)
	cost := make([]int64, 1<<n)
	value := make([]float64, 1<<n)
	best := 0.0
	for mask := 1; mask < 1<<n; mask++ {
		low := bits.TrailingZeros(uint(mask))
		rest := mask & (mask - 1)
		cost[mask] = cost[rest] + items[low].Cost
		value[mask] = value[rest] + items[low].Gain()
		if cost[mask] <= budget {
			best = max(best, value[mask])
		}
	}
	return best
}

// cheapestPrefix is the expected uniform-value selection: solvable items in
// (cost, index) order while they fit.
func cheapestPrefix(items []pool.Item, budget int64) []int {
	var idx []int
	for i, it := range items {
		if it.Correct {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return int(items[a].Cost - items[b].Cost) })
	out := []int{}
	for _, i := range idx {
		if items[i].Cost > budget {
			break
		}
		budget -= items[i].Cost
		out = append(out, i)
	}
	return out
}

// closeEnough compares optimal values with a 1e-9 relative tolerance.
func closeEnough(got, want float64) bool {
	return math.Abs(got-want) <= 1e-9*max(1, math.Abs(want))
}

func TestSolveBruteForce(t *testing.T) {
	modes := []struct {
		name    string
		uniform bool
		value   func(*rand.Rand) float64
	}{
		{"all one", true, nil},
		{"all 0.37", true, func(*rand.Rand) float64 { return 0.37 }},
		{"random floats", false, unitInterval},
		{"small integers", false, func(r *rand.Rand) float64 { return float64(1 + r.IntN(4)) }},
		{"tenths", false, func(r *rand.Rand) float64 { return float64(1+r.IntN(10)) / 10 }},
	}
	const trials = 3000
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			r := newRand(42)
			for trial := range trials {
				n := r.IntN(13)
				cmax := []int64{3, 20, 1000}[r.IntN(3)]
				items, _ := genInstance(r, n, 1, cmax, 0.75, mode.value, 1)
				budget := r.Int64N(pool.TotalCost(items) + 3)
				sol, err := Solve(context.Background(), items, budget)
				if err != nil {
					t.Fatal(err)
				}
				checkSolution(t, items, budget, sol)
				if want := bruteForce(items, budget); !closeEnough(sol.Value, want) {
					t.Fatalf("trial %d: value %v, brute force %v\nitems %+v budget %d", trial, sol.Value, want, items, budget)
				}
				if want := cheapestPrefix(items, budget); mode.uniform && !slices.Equal(sol.Chosen, want) {
					t.Fatalf("trial %d: Chosen %v, want the cheapest prefix %v", trial, sol.Chosen, want)
				}
			}
		})
	}
}
