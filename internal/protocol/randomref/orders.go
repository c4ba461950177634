package randomref

import (
	"context"
	"math/bits"
)

// drawOrders returns the random orders of samples shuffles of n items for
// seed: order s occupies out[s·n : (s+1)·n] and lists item indices in walk
// order. Each order is the full Fisher–Yates shuffle that the kernels in
// walk.go draw a prefix of, with the same stream, batches and swaps, so
// walking an order gives exactly the values the kernels give.
func drawOrders(ctx context.Context, n, samples int, seed uint64) ([]uint16, error) {
	out := make([]uint16, n*samples)
	idx := make([]uint16, n)
	plan := batchPlan(n)
	key := streamKey(seed)
	for s := range samples {
		if s%ctxCheckSamples == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		drawOrder(out[s*n:(s+1)*n], idx, plan, sampleState(key, s))
	}
	return out, nil
}

// drawOrder writes into order the shuffle of len(order) items driven by the
// stream with state st; idx is scratch of the same length.
func drawOrder(order, idx []uint16, plan []batch, st uint64) {
	n := len(order)
	idx = idx[:n]
	for i := range idx {
		idx[i] = uint16(i)
	}
	m := 0
	for _, bt := range plan {
		x := batchWord(&st, bt.prod) // the hot kernels inline this by hand
		end := min(m+int(bt.size), n)
		for ; m < end; m++ {
			hi, lo := bits.Mul64(x, uint64(n-m))
			x = lo
			j := m + int(hi)
			order[m] = idx[j]
			idx[j] = idx[m]
		}
	}
}

// walkOrderPacked is walkPacked over a stored order: out[r] receives the gain
// of the items executed under lim[r] when the items are attempted in order.
// arr holds c<<shift | g per item; lim and mask are as for walkPacked.
func walkOrderPacked(order []uint16, arr, lim []int64, mask int64, out []float64) {
	nb := len(lim)
	out = out[:nb]
	k := 0
	limit := lim[0]
	var cum int64
	for _, i := range order {
		prev := cum
		cum += arr[i]
		if cum > limit {
			g := float64(prev & mask)
			out[k] = g
			k++
			for k < nb && cum > lim[k] {
				out[k] = g
				k++
			}
			if k == nb {
				return
			}
			limit = lim[k]
		}
	}
	for ; k < nb; k++ {
		out[k] = float64(cum & mask)
	}
}

// walkOrderFloat is walkFloat over a stored order.
func walkOrderFloat(order []uint16, arr []elem, lim []int64, out []float64) {
	nb := len(lim)
	out = out[:nb]
	k := 0
	limit := lim[0]
	var cum int64
	var gain float64
	for _, i := range order {
		e := arr[i]
		cum += e.cost
		if cum > limit {
			out[k] = gain
			k++
			for k < nb && cum > lim[k] {
				out[k] = gain
				k++
			}
			if k == nb {
				return
			}
			limit = lim[k]
		}
		gain += e.gain
	}
	for ; k < nb; k++ {
		out[k] = gain
	}
}
