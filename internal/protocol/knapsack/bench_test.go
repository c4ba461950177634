package knapsack

import (
	"context"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/pool"
)

// benchInstance draws an instance whose solvable items do not all fit, so
// that the benchmark measures the solver and not the fast path.
func benchInstance(b *testing.B, seed uint64, gen func(seed uint64) ([]pool.Item, int64)) ([]pool.Item, int64) {
	b.Helper()
	for s := seed; s < seed+100; s++ {
		items, budget := gen(s)
		if solvableCost(items) > budget {
			return items, budget
		}
	}
	b.Fatal("no instance misses the fast path")
	return nil, 0
}

func runBench(b *testing.B, items []pool.Item, budget int64) {
	b.Helper()
	ctx := context.Background()
	for b.Loop() {
		if _, err := Solve(ctx, items, budget); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSolveUniform100k: n = 100,000, all values 1, about 60% solvable,
// costs uniform in [1, 32768], budget half the total cost.
func BenchmarkSolveUniform100k(b *testing.B) {
	items, budget := benchInstance(b, 1, func(s uint64) ([]pool.Item, int64) {
		return genInstance(newRand(s), 100_000, 1, 32768, 0.6, nil, 0.5)
	})
	runBench(b, items, budget)
}

// BenchmarkSolveGeneral1k: n = 1,000, all solvable, costs uniform in
// [1, 4000], values uniform in (0, 1], budget half the total cost (≈ 10⁶).
func BenchmarkSolveGeneral1k(b *testing.B) {
	items, budget := benchInstance(b, 2, func(s uint64) ([]pool.Item, int64) {
		return genInstance(newRand(s), 1000, 1, 4000, 1, unitInterval, 0.5)
	})
	runBench(b, items, budget)
}

// BenchmarkSolveGeneral1kCorrelated is a hard case for bound pruning: values
// strongly correlated with costs (v = c + 1000), n = 1,000, B ≈ 10⁶.
func BenchmarkSolveGeneral1kCorrelated(b *testing.B) {
	items, budget := benchInstance(b, 4, func(s uint64) ([]pool.Item, int64) {
		items, budget := genInstance(newRand(s), 1000, 1, 4000, 1, nil, 0.5)
		for i := range items {
			items[i].Value = float64(items[i].Cost + 1000)
		}
		return items, budget
	})
	runBench(b, items, budget)
}

// BenchmarkSolveUniform30: n = 30, all values 1, about 60% solvable, costs
// uniform in [500, 8192], budget half the total cost.
func BenchmarkSolveUniform30(b *testing.B) {
	items, budget := benchInstance(b, 3, func(s uint64) ([]pool.Item, int64) {
		return genInstance(newRand(s), 30, 500, 8192, 0.6, nil, 0.5)
	})
	runBench(b, items, budget)
}
