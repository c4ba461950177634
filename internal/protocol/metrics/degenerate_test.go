package metrics

import (
	"math"
	"testing"
)

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		name             string
		voracle, vrandom float64
		want             Degeneracy
	}{
		{"nothing solvable", 0, 0, DegenerateNoValue},
		{"oracle within ε of 0", Epsilon / 2, 0, DegenerateNoValue},
		{"α = 1 collapse", 7, 7, DegenerateCollapse},
		{"random within ε of the oracle", 7, 7 - Epsilon/2, DegenerateCollapse},
		{"a gap", 7, 3.5, Informative},
		{"a gap just above ε", 1, 1 - 2*Epsilon, Informative},
		{"NaN", math.NaN(), 0, Informative},
		{"infinite", math.Inf(1), 1, Informative},
	} {
		if got := Classify(tc.voracle, tc.vrandom); got != tc.want {
			t.Errorf("%s: Classify(%v, %v) = %q, want %q", tc.name, tc.voracle, tc.vrandom, got, tc.want)
		}
	}
}

// TestDegenerateIsEtasConvention: with valid references (0 ≤ V_random ≤
// V_oracle), a pool is degenerate exactly when Eta applies its boundary
// convention, so its η is 1 or 0 whatever the plan did between them.
func TestDegenerateIsEtasConvention(t *testing.T) {
	for _, oracle := range []float64{0, 1, 3, 10} {
		for _, random := range []float64{0, 0.5, 1, 2.5, 3, 10} {
			if random > oracle {
				continue
			}
			d := Classify(oracle, random)
			for _, vm := range []float64{0, oracle / 3, oracle} {
				eta := Eta(vm, oracle, random)
				convention := eta == 1 || eta == 0
				if d != Informative && !convention {
					t.Errorf("oracle %v random %v V_M %v: %s but η = %v", oracle, random, vm, d, eta)
				}
			}
			if d == Informative {
				// a V_M strictly between random and oracle is measured
				if eta := Eta((oracle+random)/2, oracle, random); eta != 0.5 {
					t.Errorf("oracle %v random %v: informative but η = %v", oracle, random, eta)
				}
			}
		}
	}
	if DegenerateNoValue.Meaning() != "V_oracle = 0" || DegenerateCollapse.Meaning() != "V_oracle = V_random > 0" || Informative.Meaning() != "" {
		t.Error("meanings")
	}
	var c DegenerateCounts
	for _, d := range []Degeneracy{DegenerateNoValue, Informative, DegenerateCollapse, DegenerateCollapse} {
		c.Count(d)
	}
	if c != (DegenerateCounts{NoValue: 1, Collapse: 2}) || c.Total() != 3 || c.Add(c).Total() != 6 {
		t.Errorf("counts %+v", c)
	}
}
