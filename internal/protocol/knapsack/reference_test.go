package knapsack

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/pool"
)

// referenceDP is the textbook O(n·B) table: best[w] is the optimum with
// capacity w.
func referenceDP(items []pool.Item, budget int64) float64 {
	best := make([]float64, budget+1)
	for _, it := range items {
		g := it.Gain()
		if g <= 0 {
			continue
		}
		for w := budget; w >= it.Cost; w-- {
			best[w] = max(best[w], best[w-it.Cost]+g)
		}
	}
	return best[budget]
}

func TestSolveAgainstReferenceDP(t *testing.T) {
	values := []struct {
		name  string
		value func(*rand.Rand) float64
	}{
		{"random floats", unitInterval},
		{"small integers", func(r *rand.Rand) float64 { return float64(1 + r.IntN(5)) }},
		{"wide range", func(r *rand.Rand) float64 { return 1e-3 + 1e3*r.Float64()*r.Float64() }},
	}
	for _, vc := range values {
		t.Run(vc.name, func(t *testing.T) {
			r := newRand(7)
			for trial := range 12 {
				n := 20 + r.IntN(181)
				cmax := int64(1 + r.IntN(400))
				items, _ := genInstance(r, n, 1, cmax, 0.8, vc.value, 1)
				budget := min(20_000, int64(r.Float64()*float64(pool.TotalCost(items))))
				sol, err := Solve(context.Background(), items, budget)
				if err != nil {
					t.Fatal(err)
				}
				checkSolution(t, items, budget, sol)
				if want := referenceDP(items, budget); !closeEnough(sol.Value, want) {
					t.Fatalf("trial %d (n=%d, B=%d): value %v, reference %v", trial, n, budget, sol.Value, want)
				}
			}
		})
	}
	// A large budget, as in the benchmark, on fewer items.
	t.Run("large budget", func(t *testing.T) {
		r := newRand(9)
		for trial := range 3 {
			items, budget := genInstance(r, 150, 1, 2000, 1, unitInterval, 0.2+0.3*float64(trial))
			sol, err := Solve(context.Background(), items, budget)
			if err != nil {
				t.Fatal(err)
			}
			checkSolution(t, items, budget, sol)
			if want := referenceDP(items, budget); !closeEnough(sol.Value, want) {
				t.Fatalf("trial %d (B=%d): value %v, reference %v", trial, budget, sol.Value, want)
			}
		}
	})
	// Correlated values (v ≈ c) make the bounds weak and the frontier wide.
	t.Run("correlated", func(t *testing.T) {
		r := newRand(8)
		for trial := range 8 {
			items, budget := genInstance(r, 60+r.IntN(141), 1, 300, 1, nil, 0.3+0.5*r.Float64())
			for i := range items {
				items[i].Value = float64(items[i].Cost) + float64(r.IntN(20))
			}
			sol, err := Solve(context.Background(), items, budget)
			if err != nil {
				t.Fatal(err)
			}
			checkSolution(t, items, budget, sol)
			if want := referenceDP(items, budget); !closeEnough(sol.Value, want) {
				t.Fatalf("trial %d: value %v, reference %v", trial, sol.Value, want)
			}
		}
	})
}
