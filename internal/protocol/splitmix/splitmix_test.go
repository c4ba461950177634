package splitmix

import "testing"

// TestVectors checks the published SplitMix64 outputs for seeds 1234567
// and 0, as Vigna's reference C code produces them.
func TestVectors(t *testing.T) {
	for seed, want := range map[uint64][]uint64{
		1234567: {6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431, 16408922859458223821},
		0:       {0xe220a8397b1dcdaf},
	} {
		s := New(seed)
		for i, w := range want {
			if got := s.Next(); got != w {
				t.Errorf("seed %d output %d = %d, want %d", seed, i, got, w)
			}
		}
	}
}

// TestIndicesUniform draws many indices of small ranges: each value's count
// stays within 5 standard deviations of its expectation, and n = 1 gives 0.
func TestIndicesUniform(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 30, 1000, 70000} {
		d := NewIndices(New(uint64(n)), n)
		counts := make([]int, n)
		draws := 200 * n
		for range draws {
			i := d.Next()
			if i < 0 || i >= n {
				t.Fatalf("n = %d: index %d", n, i)
			}
			counts[i]++
		}
		if n == 1 {
			continue
		}
		p := 1 / float64(n)
		sd := 5 * sqrt(float64(draws)*p*(1-p))
		for v, c := range counts {
			if diff := float64(c) - float64(draws)*p; diff > sd || -diff > sd {
				t.Errorf("n = %d: value %d drawn %d times of %d", n, v, c, draws)
				break
			}
		}
	}
}

func sqrt(x float64) float64 {
	z := x
	for range 60 {
		z = (z + x/z) / 2
	}
	return z
}

// TestFillEqualsNext: Fill continues the same index stream as Next.
func TestFillEqualsNext(t *testing.T) {
	a, b := NewIndices(New(9), 30), NewIndices(New(9), 30)
	buf := make([]int, 7)
	for round := range 50 {
		a.Fill(buf)
		for i, got := range buf {
			if want := b.Next(); got != want {
				t.Fatalf("round %d index %d: Fill %d, Next %d", round, i, got, want)
			}
		}
		if round%3 == 0 { // interleave single draws
			if x, y := a.Next(), b.Next(); x != y {
				t.Fatalf("round %d: Next %d vs %d", round, x, y)
			}
		}
	}
}
