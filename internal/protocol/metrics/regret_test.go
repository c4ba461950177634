package metrics

import (
	"math"
	"testing"
)

func TestRegret(t *testing.T) {
	tests := []struct {
		name        string
		vm, voracle float64
		want        float64
		ok          bool
	}{
		{"oracle", 4, 4, 0, true},
		{"nothing captured", 0, 4, 1, true},
		{"quarter lost", 3, 4, 0.25, true},
		{"non-unit values", 1.5, 2.5, 0.4, true},
		{"V_oracle = 0 undefined", 0, 0, 0, false},
		{"V_oracle < 0 undefined", 0, -1, 0, false},
		{"V_M above oracle by rounding", 4 + 1e-12, 4, 0, true},
		{"V_M above oracle beyond eps not hidden", 5, 4, -0.25, true},
		{"NaN V_M", math.NaN(), 4, 0, false},
		{"Inf oracle", 1, math.Inf(1), 0, false},
		{"NaN oracle", 1, math.NaN(), 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Regret(tt.vm, tt.voracle)
			if ok != tt.ok || math.Abs(got-tt.want) > 1e-12 {
				t.Fatalf("Regret(%v, %v) = %v, %v; want %v, %v", tt.vm, tt.voracle, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestRegretInUnitInterval(t *testing.T) {
	for vo := 1; vo <= 30; vo++ {
		for vm := 0; vm <= vo; vm++ {
			r, ok := Regret(float64(vm), float64(vo))
			if !ok || r < 0 || r > 1 {
				t.Fatalf("Regret(%d, %d) = %v, %v; want in [0, 1]", vm, vo, r, ok)
			}
		}
	}
}
