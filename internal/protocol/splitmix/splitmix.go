package splitmix

// SplitMix64 constants.
const (
	Gamma = 0x9E3779B97F4A7C15
	mul1  = 0xBF58476D1CE4E5B9
	mul2  = 0x94D049BB133111EB
)

// Mix64 is the SplitMix64 output function, a bijection on uint64.
func Mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * mul1
	z = (z ^ (z >> 27)) * mul2
	return z ^ (z >> 31)
}

// Stream is a SplitMix64 generator: each Next adds Gamma to the state and
// returns Mix64 of it.
type Stream struct{ state uint64 }

// New returns the stream whose state starts at state.
func New(state uint64) *Stream { return &Stream{state: state} }

// Next returns the next 64-bit output.
func (s *Stream) Next() uint64 {
	s.state += Gamma
	return Mix64(s.state)
}

// Indices draws uniform indices in [0, n) exactly, two per 64-bit output:
// its low 32-bit half h first, then its high half. A half gives the index
// ⌊h·n / 2^32⌋ (Lemire's multiply-shift) unless the low word h·n mod 2^32 is
// below 2^32 mod n, in which case that half is skipped (probability below
// n/2^32), which makes every index exactly uniform.
type Indices struct {
	s      *Stream
	n      uint64
	reject uint64 // 2^32 mod n
	word   uint64 // the current output
	halves int    // halves of word not yet used
}

// NewIndices returns the index draws of [0, n) from s; 1 ≤ n ≤ 2^32.
func NewIndices(s *Stream, n int) *Indices {
	if n < 1 || uint64(n) > 1<<32 {
		panic("splitmix: NewIndices needs 1 ≤ n ≤ 2^32")
	}
	return &Indices{s: s, n: uint64(n), reject: (1 << 32) % uint64(n)}
}

// Next returns the next index.
func (d *Indices) Next() int {
	for {
		if d.halves == 0 {
			d.word, d.halves = d.s.Next(), 2
		}
		h := d.word & 0xFFFFFFFF
		d.word >>= 32
		d.halves--
		m := h * d.n
		if m&0xFFFFFFFF >= d.reject {
			return int(m >> 32)
		}
	}
}

// Fill sets dst to the next len(dst) indices, as that many calls of Next
// would (a tight loop for hot paths).
func (d *Indices) Fill(dst []int) {
	word, halves, n, reject := d.word, d.halves, d.n, d.reject
	for i := 0; i < len(dst); {
		if halves == 0 {
			word, halves = d.s.Next(), 2
		}
		m := (word & 0xFFFFFFFF) * n
		word >>= 32
		halves--
		if m&0xFFFFFFFF >= reject {
			dst[i] = int(m >> 32)
			i++
		}
	}
	d.word, d.halves = word, halves
}
