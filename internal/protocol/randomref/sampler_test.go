package randomref

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/pool"
)

// TestSamplerMatchesMonteCarlo: cached orders give bit-identical estimates,
// on the first call (miss) and the second (hit), for integer and float gains.
func TestSamplerMatchesMonteCarlo(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 7))
	ctx := context.Background()
	for trial := range 300 {
		n := 1 + r.IntN(40)
		unit := trial%2 == 0
		items := randomPool(r, n, 1+r.Int64N(5000), unit)
		total := pool.TotalCost(items)
		budgets := make([]int64, 1+r.IntN(5))
		for i := range budgets {
			budgets[i] = r.Int64N(total + 2)
		}
		samples, seed := 1+r.IntN(300), r.Uint64()
		want, err := MonteCarlo(ctx, items, budgets, samples, seed)
		if err != nil {
			t.Fatal(err)
		}
		s := NewSampler(4)
		for call := range 2 {
			got, err := s.MonteCarlo(ctx, items, budgets, samples, seed)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d call %d (n=%d unit=%v): sampler %v, MonteCarlo %v", trial, call, n, unit, got, want)
			}
		}
	}
}

// TestDrawOrdersArePermutations checks every stored order is a permutation.
func TestDrawOrdersArePermutations(t *testing.T) {
	for _, n := range []int{1, 2, 13, 30, 300} {
		orders, err := drawOrders(context.Background(), n, 50, 9)
		if err != nil {
			t.Fatal(err)
		}
		for s := range 50 {
			o := slices.Clone(orders[s*n : (s+1)*n])
			slices.Sort(o)
			for i, v := range o {
				if int(v) != i {
					t.Fatalf("n=%d sample %d is not a permutation", n, s)
				}
			}
		}
	}
}

func TestSamplerEvictsLeastRecentlyUsed(t *testing.T) {
	ctx := context.Background()
	items := randomPool(rand.New(rand.NewPCG(1, 1)), 10, 100, true)
	budgets := []int64{pool.TotalCost(items) / 2}
	s := NewSampler(2)
	use := func(seed uint64) {
		if _, err := s.MonteCarlo(ctx, items, budgets, 10, seed); err != nil {
			t.Fatal(err)
		}
	}
	use(1)
	use(2)
	use(1) // 1 is now the most recent
	use(3) // evicts 2
	var seeds []uint64
	for _, e := range s.entries {
		seeds = append(seeds, e.key.seed)
	}
	if !slices.Equal(seeds, []uint64{1, 3}) {
		t.Errorf("cached seeds = %v, want [1 3]", seeds)
	}
}

func TestSamplerSkipsOversizedEntries(t *testing.T) {
	items := randomPool(rand.New(rand.NewPCG(2, 2)), 100, 100, true)
	budgets := []int64{pool.TotalCost(items) / 2}
	s := NewSampler(2)
	samples := MaxCachedOrderCells/100 + 1
	got, err := s.MonteCarlo(context.Background(), items, budgets, samples, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.entries) != 0 {
		t.Error("an entry above MaxCachedOrderCells was cached")
	}
	if got[0].Samples != samples || got[0].StdErr == 0 {
		t.Errorf("fallback estimate = %+v", got[0])
	}
}

func TestSamplerConcurrent(t *testing.T) {
	ctx := context.Background()
	items := randomPool(rand.New(rand.NewPCG(3, 3)), 30, 8000, true)
	budgets := []int64{pool.TotalCost(items) / 4, pool.TotalCost(items) / 2}
	want := make(map[uint64][]Estimate)
	for seed := range uint64(3) {
		w, err := MonteCarlo(ctx, items, budgets, 200, seed)
		if err != nil {
			t.Fatal(err)
		}
		want[seed] = w
	}
	s := NewSampler(2)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 20 {
				seed := uint64((g + i) % 3)
				got, err := s.MonteCarlo(ctx, items, budgets, 200, seed)
				if err != nil || !slices.Equal(got, want[seed]) {
					t.Errorf("seed %d: %v, %v; want %v", seed, got, err, want[seed])
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestSamplerCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	items := randomPool(rand.New(rand.NewPCG(4, 4)), 30, 100, true)
	_, err := NewSampler(1).MonteCarlo(ctx, items, []int64{pool.TotalCost(items) / 2}, 100, 1)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}
