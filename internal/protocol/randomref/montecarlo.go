package randomref

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/triage-eval/triage/internal/protocol/pool"
)

// ctxCheckSamples and ctxCheckDraws bound how much work MonteCarlo does
// between two looks at its context: every ctxCheckSamples samples, or sooner
// once ctxCheckDraws items have been drawn since the last look.
const (
	ctxCheckSamples = 1024
	ctxCheckDraws   = 1 << 20
)

// elem is an item as the shuffle sees it: its cost and its gain v·y.
type elem struct {
	cost int64
	gain float64
}

// MonteCarlo estimates V_random for each budget (result i is for budgets[i])
// from samples seeded shuffles. The estimate for a budget depends only on
// (items, budget, samples, seed), not on the other budgets of the call.
// Budgets that every order fits (B ≥ Σc) or that no item fits (B < min c)
// get their exact value with StdErr 0 and Samples = samples, without drawing.
// It returns an error when samples < 1, a budget is negative, an item has a
// non-positive cost or a non-finite value, or ctx ends (ctx.Err()).
func MonteCarlo(ctx context.Context, items []pool.Item, budgets []int64, samples int, seed uint64) ([]Estimate, error) {
	return monteCarlo(ctx, items, budgets, samples, seed, sampleBudgets)
}

// sampler draws the samples for the ascending budgets bud (each at least
// min c and below Σc) and returns their moments in the same order.
type sampler func(ctx context.Context, items []pool.Item, bud []int64, samples int, seed uint64, shiftBits uint, packed bool) ([]moments, error)

// monteCarlo validates the call, answers the budgets that need no sampling,
// and has sample estimate the others.
func monteCarlo(ctx context.Context, items []pool.Item, budgets []int64, samples int, seed uint64, sample sampler) ([]Estimate, error) {
	if samples < 1 {
		return nil, fmt.Errorf("randomref: samples = %d, need at least 1", samples)
	}
	if len(items) > math.MaxInt32 {
		return nil, fmt.Errorf("randomref: %d items is more than MonteCarlo supports (%d)", len(items), math.MaxInt32)
	}
	info, err := inspect(items)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([]Estimate, len(budgets))
	sim := make([]int, 0, len(budgets)) // indices of the budgets that need sampling
	for i, b := range budgets {
		if err := checkBudget(b); err != nil {
			return nil, err
		}
		out[i] = Estimate{Budget: b, Samples: samples}
		if v, ok := info.trivial(b); ok {
			out[i].Mean = v
			continue
		}
		sim = append(sim, i)
	}
	if len(sim) == 0 {
		return out, nil
	}
	slices.SortStableFunc(sim, func(x, y int) int { return cmp.Compare(budgets[x], budgets[y]) })
	bud := make([]int64, len(sim))
	for r, i := range sim {
		bud[r] = budgets[i]
	}
	shiftBits, packed := packShift(items)
	res, err := sample(ctx, items, bud, samples, seed, shiftBits, packed)
	if err != nil {
		return nil, err
	}
	for r, i := range sim {
		out[i].Mean, out[i].StdErr = res[r].mean, res[r].stdErr
	}
	return out, nil
}

// moments is the result of sampling one budget.
type moments struct{ mean, stdErr float64 }

// sampleBudgets draws the samples for the ascending budgets bud, each of
// them at least min c and below Σc, and returns their moments in the same
// order. packed selects walkPacked with the given shift (see packShift),
// otherwise walkFloat runs; both give the same values where both apply.
func sampleBudgets(ctx context.Context, items []pool.Item, bud []int64, samples int, seed uint64, shiftBits uint, packed bool) ([]moments, error) {
	n, nb := len(items), len(bud)
	rec := make([]int32, n)
	plan := batchPlan(n)
	acc := newAccumulator(nb)
	vals := acc.vals

	// Exactly one of the two kernels runs; see walk.go.
	var (
		parr, porig, plim []int64
		farr, forig       []elem
	)
	mask := int64(1)<<shiftBits - 1
	if packed {
		parr, plim = packItems(items, bud, shiftBits)
		porig = slices.Clone(parr)
	} else {
		farr = elems(items)
		forig = slices.Clone(farr)
	}

	key := streamKey(seed)
	draws := 0
	for s := range samples {
		if s%ctxCheckSamples == 0 || draws >= ctxCheckDraws {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			draws = 0
		}
		st := sampleState(key, s)
		var m int
		if packed {
			m = walkPacked(parr, rec, plan, plim, mask, vals, st)
			restore(parr, porig, rec[:m])
		} else {
			m = walkFloat(farr, rec, plan, bud, vals, st)
			restore(farr, forig, rec[:m])
		}
		draws += m
		acc.add(s)
	}
	return acc.moments(samples), nil
}

// accumulator gathers the per-budget moments of the samples.
type accumulator struct {
	// vals receives each sample's value per budget before add is called.
	vals []float64
	// shift is the first sample's value, and sum and sumSq the sums of the
	// shifted values and of their squares.
	shift, sum, sumSq []float64
}

func newAccumulator(nb int) *accumulator {
	buf := make([]float64, 4*nb)
	return &accumulator{vals: buf[:nb:nb], shift: buf[nb : 2*nb : 2*nb], sum: buf[2*nb : 3*nb : 3*nb], sumSq: buf[3*nb:]}
}

// add folds in sample s, whose values are in vals.
func (a *accumulator) add(s int) {
	if s == 0 {
		copy(a.shift, a.vals)
	}
	for r, v := range a.vals {
		d := v - a.shift[r]
		a.sum[r] += d
		a.sumSq[r] += float64(d * d) // no FMA: same result on every platform
	}
}

// moments returns the mean and standard error of each budget.
func (a *accumulator) moments(samples int) []moments {
	res := make([]moments, len(a.vals))
	ns := float64(samples)
	for r := range res {
		res[r].mean = a.shift[r] + a.sum[r]/ns
		if samples > 1 {
			// Σ(d − d̄)² = Σd² − (Σd)²/N on data shifted by one of its own
			// values, which keeps the subtraction well conditioned.
			if v := (a.sumSq[r] - a.sum[r]*a.sum[r]/ns) / (ns - 1); v > 0 {
				res[r].stdErr = math.Sqrt(v / ns)
			}
		}
	}
	return res
}

// packItems returns each item as c<<shift | g and each budget as the packed
// limit B<<shift | (2^shift − 1), for walkPacked and walkOrderPacked.
func packItems(items []pool.Item, bud []int64, shiftBits uint) (packed, limits []int64) {
	mask := int64(1)<<shiftBits - 1
	packed = make([]int64, len(items))
	for i, it := range items {
		packed[i] = it.Cost<<shiftBits | int64(it.Gain())
	}
	limits = make([]int64, len(bud))
	for r, b := range bud {
		limits[r] = b<<shiftBits | mask
	}
	return packed, limits
}

// elems returns the items as (cost, gain) pairs, for the float kernels.
func elems(items []pool.Item) []elem {
	out := make([]elem, len(items))
	for i, it := range items {
		out[i] = elem{cost: it.Cost, gain: it.Gain()}
	}
	return out
}

// restore undoes a sample's writes to arr: it copies orig back over the
// recorded positions, or over all of arr when that is cheaper.
func restore[E any](arr, orig []E, rec []int32) {
	if 8*len(rec) >= len(arr) {
		copy(arr, orig)
		return
	}
	for _, j := range rec {
		arr[j] = orig[j]
	}
}

// packShift reports whether every gain is a non-negative integer, so that
// walkPacked applies, and the shift that makes room for Σg below the cost
// bits while the packed total Σc<<shift | Σg stays below 2^63. Integer sums
// below 2^53 are exact in float64, so both kernels give the same values.
func packShift(items []pool.Item) (uint, bool) {
	var sumGain, sumCost uint64
	for _, it := range items {
		g := it.Gain()
		if !(g >= 0) || g != math.Trunc(g) || g > 1<<52 {
			return 0, false
		}
		sumGain += uint64(g)
		sumCost += uint64(it.Cost)
	}
	if sumGain >= 1<<52 {
		return 0, false
	}
	shift := uint(bits.Len64(sumGain))
	if sumCost >= 1<<(62-shift) {
		return 0, false
	}
	return shift, true
}
