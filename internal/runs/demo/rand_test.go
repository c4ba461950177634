package demo

import "hash/fnv"

// genSeed seeds the whole sample; changing it changes every file.
const genSeed = 20250101

// rng is SplitMix64: integer-only, so the sample is the same on every
// platform and Go version.
type rng struct{ s uint64 }

// newRNG returns a generator keyed by genSeed and parts, so that each
// problem and each (solver, problem) draws independently of the others.
func newRNG(parts ...string) *rng {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return &rng{s: h.Sum64() ^ genSeed}
}

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a number in [0, n); the modulo bias is irrelevant here.
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

// between returns a number in [lo, hi].
func (r *rng) between(lo, hi int) int { return lo + r.intn(hi-lo+1) }
