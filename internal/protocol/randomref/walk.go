package randomref

import (
	"math/bits"

	"github.com/triage-eval/triage/internal/protocol/splitmix"
)

// The two kernels below run one Monte Carlo sample: a partial Fisher–Yates
// shuffle of arr, driven by the SplitMix64 stream whose state is st, walked
// under regime U. Position m (m = 0, 1, …) receives an item drawn uniformly
// from positions [m, n) of the current arrangement, the draws coming in the
// batches of plan (see batchPlan and batchWord in rng.go). Drawing stops at
// the first item whose cost no longer fits the largest budget, so only the
// executed prefix and the item that stops it are drawn.
//
// The swap only writes arr[j] = arr[m]: position m is never read again in the
// sample, so the drawn item need not be stored there. rec[m] = j records
// every written position, so that copying orig back over rec[:m] (or over all
// of arr) restores the arrangement. The kernels return m, the number of items
// drawn.
//
// The two kernels differ only in how they accumulate: walkPacked keeps cost
// and gain in one int64, walkFloat keeps a float64 gain beside an int64 cost.
// Keeping them as two plain loops (rather than one generic loop) lets the
// compiler keep the loop state in registers.

// walkPacked is the kernel for pools whose gains are small non-negative
// integers (unit values in the main protocol). arr holds c<<shift | g. The
// cumulative sum of such words is Σc<<shift | Σg as long as Σg < 2^shift, and
// Σc > B exactly when the packed sum exceeds lim = B<<shift | (2^shift − 1).
// lim must be ascending with lim[last] below the packed total; mask is
// 2^shift − 1. out[r] receives the gain of the items executed under lim[r]
// (those before the cumulative cost first exceeds it): the low bits of
// their packed sum.
func walkPacked(arr []int64, rec []int32, plan []batch, lim []int64, mask int64, out []float64, st uint64) int {
	n := len(arr)
	rec = rec[:n]
	nb := len(lim)
	out = out[:nb]
	k := 0
	limit := lim[0]
	var cum int64
	m := 0
	for _, bt := range plan {
		// batchWord, inlined by hand: it takes the state's address.
		st += splitmix.Gamma
		x := splitmix.Mix64(st)
		if x*bt.prod < bt.prod {
			x, st = batchWordSlow(x, bt.prod, st)
		}
		end := min(m+int(bt.size), n)
		for ; m < end; m++ {
			hi, lo := bits.Mul64(x, uint64(n-m))
			x = lo
			j := m + int(hi)
			e := arr[j]
			arr[j] = arr[m]
			rec[m] = int32(j)
			prev := cum
			cum += e
			if cum > limit {
				g := float64(prev & mask)
				out[k] = g
				k++
				for k < nb && cum > lim[k] {
					out[k] = g
					k++
				}
				if k == nb {
					return m + 1
				}
				limit = lim[k]
			}
		}
	}
	// Reached only if lim[last] is not below the total.
	for ; k < nb; k++ {
		out[k] = float64(cum & mask)
	}
	return n
}

// walkFloat is the kernel for general gains. arr holds (c, g) pairs and lim
// plain budgets, ascending with lim[last] < Σc. out[r] receives the gain of
// the items executed under lim[r], summed in walk order.
func walkFloat(arr []elem, rec []int32, plan []batch, lim []int64, out []float64, st uint64) int {
	n := len(arr)
	rec = rec[:n]
	nb := len(lim)
	out = out[:nb]
	k := 0
	limit := lim[0]
	var cum int64
	var gain float64
	m := 0
	for _, bt := range plan {
		// batchWord, inlined by hand: it takes the state's address.
		st += splitmix.Gamma
		x := splitmix.Mix64(st)
		if x*bt.prod < bt.prod {
			x, st = batchWordSlow(x, bt.prod, st)
		}
		end := min(m+int(bt.size), n)
		for ; m < end; m++ {
			hi, lo := bits.Mul64(x, uint64(n-m))
			x = lo
			j := m + int(hi)
			e := arr[j]
			arr[j] = arr[m]
			rec[m] = int32(j)
			cum += e.cost
			if cum > limit {
				out[k] = gain
				k++
				for k < nb && cum > lim[k] {
					out[k] = gain
					k++
				}
				if k == nb {
					return m + 1
				}
				limit = lim[k]
			}
			gain += e.gain
		}
	}
	for ; k < nb; k++ {
		out[k] = gain
	}
	return n
}
