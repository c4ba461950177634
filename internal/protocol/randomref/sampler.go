package randomref

import (
	"context"
	"math"
	"sync"

	"github.com/triage-eval/triage/internal/protocol/pool"
)

// Limits of the order cache.
const (
	// MaxCachedPoolSize is the largest pool whose orders a Sampler keeps.
	MaxCachedPoolSize = math.MaxUint16
	// MaxCachedOrderCells caps n·samples of one cached entry (2 bytes each).
	MaxCachedOrderCells = 1 << 22
)

// Sampler computes the same Monte Carlo estimates as MonteCarlo, bit for
// bit, but keeps the random orders of its most recent (pool size, samples,
// seed) triples. The orders depend on nothing else, so in a grid of
// equal-sized pools with one seed every call after the first only walks
// stored orders instead of drawing them. Pools above MaxCachedPoolSize, or
// n·samples above MaxCachedOrderCells, are computed by MonteCarlo directly.
// A Sampler is safe for concurrent use.
type Sampler struct {
	mu         sync.Mutex
	maxEntries int
	entries    []orderEntry // least recently used first
}

type orderKey struct {
	n, samples int
	seed       uint64
}

type orderEntry struct {
	key   orderKey
	order []uint16
}

// NewSampler returns a Sampler keeping at most maxEntries order sets
// (at most 8 MiB each); maxEntries < 1 means 1.
func NewSampler(maxEntries int) *Sampler {
	return &Sampler{maxEntries: max(maxEntries, 1)}
}

// MonteCarlo is the package-level MonteCarlo with the order cache.
func (s *Sampler) MonteCarlo(ctx context.Context, items []pool.Item, budgets []int64, samples int, seed uint64) ([]Estimate, error) {
	n := len(items)
	if n > MaxCachedPoolSize || samples < 1 || int64(n)*int64(samples) > MaxCachedOrderCells {
		return MonteCarlo(ctx, items, budgets, samples, seed)
	}
	return monteCarlo(ctx, items, budgets, samples, seed, s.sample)
}

// sample is a sampler that walks cached orders.
func (s *Sampler) sample(ctx context.Context, items []pool.Item, bud []int64, samples int, seed uint64, shiftBits uint, packed bool) ([]moments, error) {
	n := len(items)
	orders, err := s.orders(ctx, orderKey{n: n, samples: samples, seed: seed})
	if err != nil {
		return nil, err
	}
	acc := newAccumulator(len(bud))
	var (
		arr, lim []int64
		farr     []elem
	)
	mask := int64(1)<<shiftBits - 1
	if packed {
		arr, lim = packItems(items, bud, shiftBits)
	} else {
		farr = elems(items)
	}
	for smp := range samples {
		if smp%ctxCheckSamples == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		order := orders[smp*n : (smp+1)*n]
		if packed {
			walkOrderPacked(order, arr, lim, mask, acc.vals)
		} else {
			walkOrderFloat(order, farr, bud, acc.vals)
		}
		acc.add(smp)
	}
	return acc.moments(samples), nil
}

// orders returns the orders for key, drawing and storing them on a miss.
func (s *Sampler) orders(ctx context.Context, key orderKey) ([]uint16, error) {
	if o := s.lookup(key); o != nil {
		return o, nil
	}
	o, err := drawOrders(ctx, key.n, key.samples, key.seed)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, e := range s.entries { // another call may have stored them meanwhile
		if e.key == key {
			s.touch(i)
			return e.order, nil
		}
	}
	if len(s.entries) == s.maxEntries {
		s.entries = append(s.entries[:0], s.entries[1:]...)
	}
	s.entries = append(s.entries, orderEntry{key: key, order: o})
	return o, nil
}

func (s *Sampler) lookup(key orderKey) []uint16 {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, e := range s.entries {
		if e.key == key {
			return s.touch(i)
		}
	}
	return nil
}

// touch moves entry i to the most recently used end and returns its orders.
func (s *Sampler) touch(i int) []uint16 {
	e := s.entries[i]
	s.entries = append(append(s.entries[:i], s.entries[i+1:]...), e)
	return e.order
}
