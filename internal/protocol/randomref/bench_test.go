package randomref

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/pool"
)

// benchPool returns n items with costs uniform in [lo, hi], every other item
// correct and unit values, from a fixed stream.
func benchPool(n int, lo, hi int64, seed uint64) []pool.Item {
	r := rand.New(rand.NewPCG(seed, 0))
	items := make([]pool.Item, n)
	for i := range items {
		items[i] = pool.Item{
			Cost:    lo + r.Int64N(hi-lo+1),
			Value:   1,
			Correct: i%2 == 0,
		}
	}
	return items
}

// alphaBudgets returns ⌊α·Σc⌋ for each α.
func alphaBudgets(items []pool.Item, alphas ...float64) []int64 {
	total := pool.TotalCost(items)
	out := make([]int64, len(alphas))
	for i, a := range alphas {
		out[i] = int64(a * float64(total))
	}
	return out
}

func BenchmarkMonteCarlo30x4(b *testing.B) {
	items := benchPool(30, 500, 8192, 1)
	budgets := alphaBudgets(items, 0.25, 0.5, 0.75, 1)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := MonteCarlo(ctx, items, budgets, 1000, 42); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMonteCarlo100k(b *testing.B) {
	items := benchPool(100_000, 500, 8192, 2)
	budgets := alphaBudgets(items, 0.5)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := MonteCarlo(ctx, items, budgets, 1000, 42); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExact30(b *testing.B) {
	items := benchPool(30, 1, 8192, 3)
	budgets := alphaBudgets(items, 0.5)
	if err := CheckExact(items, budgets[0]); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Exact(ctx, items, budgets); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSamplerMonteCarlo30x4 is BenchmarkMonteCarlo30x4 through a
// Sampler: "warm" reuses the stored orders (every call after the first in a
// grid of 30-item pools), "cold" draws them on every call.
func BenchmarkSamplerMonteCarlo30x4(b *testing.B) {
	items := benchPool(30, 500, 8192, 1)
	budgets := alphaBudgets(items, 0.25, 0.5, 0.75, 1)
	ctx := context.Background()
	b.Run("cache=warm", func(b *testing.B) {
		s := NewSampler(1)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.MonteCarlo(ctx, items, budgets, 1000, 42); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cache=cold", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := NewSampler(1).MonteCarlo(ctx, items, budgets, 1000, 42); err != nil {
				b.Fatal(err)
			}
		}
	})
}
