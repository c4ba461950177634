package randomref

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/splitmix"
)

func TestBatchPlan(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 7, 30, 64, 100, 1000, 65536, 65537, 100_000} {
		plan := batchPlan(n)
		m := 0
		for _, b := range plan {
			if b.size < 1 {
				t.Fatalf("n=%d: empty batch", n)
			}
			p := uint64(1)
			for i := range int(b.size) {
				p *= uint64(n - m - i)
			}
			if p != b.prod || p > maxBatchProduct {
				t.Fatalf("n=%d batch at %d: prod %d, bounds multiply to %d (cap %d)", n, m, b.prod, p, uint64(maxBatchProduct))
			}
			m += int(b.size)
			if m < n && p*uint64(n-m) <= maxBatchProduct {
				t.Fatalf("n=%d batch ending at %d is not maximal", n, m)
			}
		}
		if m != n || cap(plan) != len(plan) {
			t.Fatalf("n=%d: plan covers %d positions (len %d, cap %d)", n, m, len(plan), cap(plan))
		}
	}
}

// chiSquareOK reports whether observed counts are consistent with equal
// probabilities: the statistic is within 6 standard deviations of its mean
// (degrees of freedom k−1, variance 2(k−1)).
func chiSquareOK(counts []int) (float64, bool) {
	total := 0
	for _, c := range counts {
		total += c
	}
	exp := float64(total) / float64(len(counts))
	var chi float64
	for _, c := range counts {
		d := float64(c) - exp
		chi += d * d / exp
	}
	df := float64(len(counts) - 1)
	return chi, chi < df+6*math.Sqrt(2*df)
}

// The digits of one batch word are jointly uniform.
func TestBatchDigitsUniform(t *testing.T) {
	bounds := []uint64{7, 6, 5, 4}
	prod := uint64(7 * 6 * 5 * 4)
	counts := make([]int, prod)
	st := uint64(99)
	for range 200 * int(prod) {
		x := batchWord(&st, prod)
		code := uint64(0)
		for _, b := range bounds {
			var d uint64
			d, x = mulHiLo(x, b)
			code = code*b + d
		}
		counts[code]++
	}
	if chi, ok := chiSquareOK(counts); !ok {
		t.Errorf("batch digits: χ² = %.1f over %d cells", chi, prod)
	}
}

func TestBatchWordRejection(t *testing.T) {
	// prod = 6: 2^64 mod 6 = 4, so the word 0 (x·6 mod 2^64 = 0) is
	// rejected and the next output taken.
	x, st := batchWordSlow(0, 6, 10)
	if st != 10+splitmix.Gamma || x != splitmix.Mix64(10+splitmix.Gamma) {
		t.Errorf("rejected word: got (%#x, %#x), want the next output", x, st)
	}
	// A power of two rejects nothing (2^64 mod 2^32 = 0).
	if x, st := batchWordSlow(1<<40, 1<<32, 10); x != 1<<40 || st != 10 {
		t.Errorf("power-of-two bound: got (%#x, %#x), want the word kept", x, st)
	}
	// Starting from state −γ, the first output is splitmix.Mix64(0) = 0.
	st = minusGamma
	if x := batchWord(&st, 6); x != splitmix.Mix64(splitmix.Gamma) {
		t.Errorf("batchWord from −γ = %#x, want the second output %#x", x, splitmix.Mix64(splitmix.Gamma))
	}
}

// minusGamma is the state whose next output is splitmix.Mix64(0) = 0.
const minusGamma = ^uint64(splitmix.Gamma) + 1

// referenceRec replays sample state st with batchWord and returns the
// positions j the kernels record for the first `draws` positions.
func referenceRec(n, draws int, st uint64) []int32 {
	var rec []int32
	m := 0
	for _, b := range batchPlan(n) {
		x := batchWord(&st, b.prod)
		for range int(b.size) {
			if m == draws {
				return rec
			}
			var d uint64
			d, x = mulHiLo(x, uint64(n-m))
			rec = append(rec, int32(m+int(d)))
			m++
		}
	}
	return rec
}

// permFromRec applies the recorded Fisher–Yates swaps to the identity.
func permFromRec(n int, rec []int32) []int {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	for m, j := range rec {
		perm[m], perm[j] = perm[j], perm[m]
	}
	return perm
}

// Both kernels draw exactly the positions that batchWord defines, also when
// the first word is rejected (state −γ makes it 0).
func TestKernelsFollowStream(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{1, 2, 5, 30, 200} {
		for _, st := range []uint64{minusGamma, r.Uint64(), r.Uint64()} {
			parr := make([]int64, n)
			farr := make([]elem, n)
			for i := range parr {
				parr[i] = 1 << 8
				farr[i] = elem{cost: 1}
			}
			plan := batchPlan(n)
			// Budget n−1 forces every position to be drawn.
			prec, frec := make([]int32, n), make([]int32, n)
			pm := walkPacked(parr, prec, plan, []int64{int64(n-1)<<8 | 255}, 255, make([]float64, 1), st)
			fm := walkFloat(farr, frec, plan, []int64{int64(n - 1)}, make([]float64, 1), st)
			want := referenceRec(n, n, st)
			if pm != n || fm != n {
				t.Fatalf("n=%d: drew %d and %d items, want %d", n, pm, fm, n)
			}
			for m := range n {
				if prec[m] != want[m] || frec[m] != want[m] {
					t.Fatalf("n=%d st=%#x position %d: kernels drew %d and %d, stream says %d", n, st, m, prec[m], frec[m], want[m])
				}
			}
		}
	}
}

// The kernels' shuffles are uniform over all n! orders.
func TestShuffleUniform(t *testing.T) {
	for _, n := range []int{3, 4, 5} {
		fact := factorial(n)
		counts := make([]int, fact)
		index := map[[8]int]int{}
		arr := make([]int64, n)
		rec := make([]int32, n)
		plan := batchPlan(n)
		for s := range 400 * fact {
			for i := range arr {
				arr[i] = 1 << 8
			}
			walkPacked(arr, rec, plan, []int64{int64(n-1)<<8 | 255}, 255, make([]float64, 1), sampleState(streamKey(5), s))
			var key [8]int
			copy(key[:], permFromRec(n, rec))
			id, ok := index[key]
			if !ok {
				id = len(index)
				index[key] = id
			}
			counts[id]++
		}
		if len(index) != fact {
			t.Fatalf("n=%d: saw %d distinct orders, want %d", n, len(index), fact)
		}
		if chi, ok := chiSquareOK(counts); !ok {
			t.Errorf("n=%d: χ² = %.1f over %d orders", n, chi, fact)
		}
	}
}

func TestSampleStateDistinct(t *testing.T) {
	seen := map[uint64]bool{}
	for _, seed := range []uint64{0, 1, 2, 3, 1 << 63} {
		for s := range 1000 {
			st := sampleState(streamKey(seed), s)
			if seen[st] {
				t.Fatalf("seed %d sample %d repeats a state", seed, s)
			}
			seen[st] = true
		}
	}
}
