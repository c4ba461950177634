package metrics

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestEta(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name                 string
		vm, voracle, vrandom float64
		want                 float64
	}{
		{"oracle", 5, 5, 2, 1},
		{"random", 2, 5, 2, 0},
		{"halfway", 3.5, 5, 2, 0.5},
		{"below random is negative", 0, 5, 2, -2.0 / 3},
		{"non-unit values", 2.5, 7.5, 1.25, (2.5 - 1.25) / (7.5 - 1.25)},
		{"gap just above eps uses formula", 0, 2e-9, 0, 0},
		{"nothing solvable, V_M = 0", 0, 0, 0, 1},
		{"nothing solvable, V_M tiny negative within eps", -1e-10, 0, 0, 1},
		{"nothing solvable, V_M below -eps", -1e-8, 0, 0, 0},
		{"alpha=1 collapse, V_M = oracle", 12, 12, 12, 1},
		{"alpha=1 collapse, V_M within eps", 12 - 5e-10, 12, 12, 1},
		{"alpha=1 collapse, V_M below", 11, 12, 12, 0},
		{"gap within eps, V_M above", 12, 12, 12 - 1e-10, 1},
		{"random above oracle (gap < 0), V_M at oracle", 3, 3, 3.5, 1},
		{"random above oracle (gap < 0), V_M below", 2, 3, 3.5, 0},
		{"V_M above oracle by rounding", 5 + 1e-12, 5, 2, 1},
		{"V_M above oracle beyond eps is not hidden", 6, 5, 2, 4.0 / 3},
		{"NaN V_M", math.NaN(), 5, 2, math.NaN()},
		{"NaN oracle", 1, math.NaN(), 2, math.NaN()},
		{"Inf random", 1, 5, -inf, math.NaN()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Eta(tt.vm, tt.voracle, tt.vrandom)
			if math.IsNaN(tt.want) {
				if !math.IsNaN(got) {
					t.Fatalf("Eta = %v, want NaN", got)
				}
				return
			}
			if math.Abs(got-tt.want) > 1e-12 {
				t.Fatalf("Eta(%v, %v, %v) = %v, want %v", tt.vm, tt.voracle, tt.vrandom, got, tt.want)
			}
		})
	}
}

// TestEtaAtMostOne checks η ≤ 1 for every feasible V_M ≤ V_oracle, and η ≥ 0
// for V_M ≥ V_random.
func TestEtaAtMostOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		vo := float64(rng.IntN(31)) * []float64{1, 0.1, 2.5}[rng.IntN(3)]
		vr := vo * rng.Float64()
		vm := vo * rng.Float64()
		if rng.IntN(10) == 0 {
			vm = vo
		}
		eta := Eta(vm, vo, vr)
		if eta > 1 {
			t.Fatalf("Eta(%v, %v, %v) = %v > 1", vm, vo, vr, eta)
		}
		if vm >= vr && eta < 0 {
			t.Fatalf("Eta(%v, %v, %v) = %v < 0 with V_M ≥ V_random", vm, vo, vr, eta)
		}
	}
}
