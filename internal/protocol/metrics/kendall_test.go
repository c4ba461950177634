package metrics

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestKendallTauB(t *testing.T) {
	tests := []struct {
		name string
		x, y []float64
		want float64
	}{
		// No ties: n_c = 7, n_d = 3 over 10 pairs → τ = 4/10.
		// scipy.stats.kendalltau([1,2,3,4,5], [3,1,2,5,4]) → 0.4.
		{"no ties", []float64{1, 2, 3, 4, 5}, []float64{3, 1, 2, 5, 4}, 0.4},
		// scipy's documented example: n_c = 2, n_d = 6, n₀ = 10, n₁ = 2
		// ((0,3), (1,4) tied in x), n₂ = 1 ((0,3) tied in y):
		// τ_b = −4/√(8·9) = −0.47140452079103173 (scipy's value).
		{"scipy example", []float64{12, 2, 1, 12, 2}, []float64{1, 4, 7, 1, 0}, -0.47140452079103173},
		// Ties in both: n_c = 5 ((0,3),(0,4),(1,4),(2,4),(3,4)), n_d = 1
		// ((1,2)), n₁ = 2 ((0,1),(2,3)), n₂ = 2 ((0,2),(1,3)):
		// τ_b = 4/√(8·8) = 0.5.
		{"ties in both", []float64{1, 1, 2, 2, 3}, []float64{1, 2, 1, 2, 3}, 0.5},
		// Identical rankings with ties: n_c = 8, n_d = 0, n₁ = n₂ = 2 → 8/8.
		{"identical with ties", []float64{1, 1, 2, 2, 3}, []float64{10, 10, 20, 20, 30}, 1},
		{"perfect agreement", []float64{0.1, 0.5, 0.9, 0.3}, []float64{1, 5, 9, 3}, 1},
		{"reversal", []float64{1, 2, 3, 4, 5, 6}, []float64{6, 5, 4, 3, 2, 1}, -1},
		{"two items agree", []float64{0, 1}, []float64{-3, 2}, 1},
		{"two items disagree", []float64{0, 1}, []float64{2, -3}, -1},
		// One pair tied only in x out of 3: n_c = 2, n_d = 0, n₁ = 1, n₂ = 0:
		// τ_b = 2/√(2·3) = 0.816496580927726 (scipy: 0.8164965809277261).
		{"tie in x only", []float64{1, 1, 2}, []float64{1, 2, 3}, 2 / math.Sqrt(6)},
		// Infinities rank as extremes.
		{"infinities", []float64{math.Inf(-1), 0, math.Inf(1)}, []float64{1, 2, 3}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := KendallTauB(tt.x, tt.y)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-tt.want) > 1e-15 {
				t.Fatalf("τ_b = %.17g, want %.17g", got, tt.want)
			}
			back, err := KendallTauB(tt.y, tt.x)
			if err != nil || back != got {
				t.Fatalf("not symmetric: τ_b(y, x) = %v, %v; τ_b(x, y) = %v", back, err, got)
			}
		})
	}
}

func TestKendallTauBErrors(t *testing.T) {
	tests := []struct {
		name string
		x, y []float64
		want error
	}{
		{"length mismatch", []float64{1, 2}, []float64{1, 2, 3}, ErrLengthMismatch},
		{"empty", nil, nil, ErrTooFew},
		{"one item", []float64{1}, []float64{2}, ErrTooFew},
		{"x all ties", []float64{3, 3, 3}, []float64{1, 2, 3}, ErrAllTied},
		{"y all ties", []float64{1, 2, 3}, []float64{0, 0, 0}, ErrAllTied},
		{"NaN", []float64{1, math.NaN(), 3}, []float64{1, 2, 3}, ErrNaN},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := KendallTauB(tt.x, tt.y); !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

// TestKendallTauBProperties checks range, symmetry, invariance under a
// monotone transform, and negation under reversal on random rankings with
// many ties.
func TestKendallTauBProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		n := 2 + rng.IntN(12)
		x, y := make([]float64, n), make([]float64, n)
		for i := range n {
			x[i], y[i] = float64(rng.IntN(4)), float64(rng.IntN(4))
		}
		tau, err := KendallTauB(x, y)
		if errors.Is(err, ErrAllTied) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if tau < -1 || tau > 1 {
			t.Fatalf("τ_b(%v, %v) = %v out of [−1, 1]", x, y, tau)
		}
		if back, _ := KendallTauB(y, x); back != tau {
			t.Fatalf("asymmetric: %v vs %v", tau, back)
		}
		mono, neg := make([]float64, n), make([]float64, n)
		for i := range n {
			mono[i] = math.Exp(x[i]) - 7
			neg[i] = -y[i]
		}
		if m, _ := KendallTauB(mono, y); m != tau {
			t.Fatalf("not invariant under a monotone transform: %v vs %v", m, tau)
		}
		if r, _ := KendallTauB(x, neg); r != -tau {
			t.Fatalf("reversing y gives %v, want %v", r, -tau)
		}
	}
}
