package randomref

import "github.com/triage-eval/triage/internal/protocol/splitmix"

// streamKey returns splitmix.Mix64(seed), the key from which every sample's stream
// is derived.
func streamKey(seed uint64) uint64 { return splitmix.Mix64(seed) }

// sampleState returns the initial SplitMix64 state of sample s's stream:
// splitmix.Mix64(key + (s+1)·γ) with key = streamKey(seed), i.e. output number s
// (0-based) of a SplitMix64 generator started from state key. It depends
// only on (seed, s), so every sample's shuffle can be reproduced on its own.
func sampleState(key uint64, s int) uint64 {
	return splitmix.Mix64(key + (uint64(s)+1)*splitmix.Gamma)
}

// maxBatchProduct caps the product of the bounds drawn from one 64-bit word.
// A word is rejected with probability (2^64 mod p)/2^64 < p/2^64 ≤ 2^-32.
const maxBatchProduct = 1 << 32

// batch is a run of consecutive shuffle positions whose bounded draws come
// from one 64-bit word: size positions, whose bounds multiply to prod.
type batch struct {
	prod uint64
	size int32
}

// batchPlan splits the n positions of a Fisher–Yates shuffle (bounds n, n−1,
// …, 1) greedily into batches whose bound product stays ≤ maxBatchProduct.
// It depends only on n.
func batchPlan(n int) []batch {
	count := 0
	for m := 0; m < n; count++ {
		for p := uint64(1); m < n && p*uint64(n-m) <= maxBatchProduct; m++ {
			p *= uint64(n - m)
		}
	}
	plan := make([]batch, 0, count)
	for m := 0; m < n; {
		b := batch{prod: 1}
		for m < n && b.prod*uint64(n-m) <= maxBatchProduct {
			b.prod *= uint64(n - m)
			b.size++
			m++
		}
		plan = append(plan, b)
	}
	return plan
}

// batchWord draws the word for a batch whose bounds multiply to prod from
// the stream with state *st: the next SplitMix64 output x, accepted by
// Lemire's test for the bound prod (x·prod mod 2^64 ≥ 2^64 mod prod) or
// else replaced by the next output, and so on. The accepted word yields the
// batch's draws digit by digit: for bounds b1, b2, …, (d1, x) = (⌊x·b1/2^64⌋,
// x·b1 mod 2^64), then (d2, x) = (⌊x·b2/2^64⌋, x·b2 mod 2^64), … These are
// the mixed-radix digits of Lemire's ⌊x·prod/2^64⌋, which is uniform on
// [0, prod), so the digits are independent and uniform on their bounds.
//
// The kernels in walk.go inline this function by hand (a call per batch
// costs more than the batch's draws); the tests check that they agree with
// it.
func batchWord(st *uint64, prod uint64) uint64 {
	*st += splitmix.Gamma
	x := splitmix.Mix64(*st)
	if x*prod < prod {
		x, *st = batchWordSlow(x, prod, *st)
	}
	return x
}

// batchWordSlow finishes batchWord's test for a word x whose low product
// fell below prod: it draws from the stream with state st until the low
// product reaches 2^64 mod prod, and returns the accepted word and the state.
//
//go:noinline
func batchWordSlow(x, prod, st uint64) (uint64, uint64) {
	threshold := -prod % prod
	for x*prod < threshold {
		st += splitmix.Gamma
		x = splitmix.Mix64(st)
	}
	return x, st
}
