package metrics

import (
	"math"
	"testing"
)

func TestDiagnose(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	tests := []struct {
		name  string
		items []PlannedItem
		want  Diagnostics
	}{
		{"empty plan", []PlannedItem{{0, 10, true}, {0, 10, false}}, Diagnostics{Recall: f(0)}},
		{"nothing solvable", []PlannedItem{{10, 10, false}}, Diagnostics{Precision: f(0), CostForecast: f(0)}},
		{
			// S = {1, 2, 3}, Y = {1, 2, 4}: precision 2/3, recall 2/3;
			// log₂(a/c) = 1, −1, 0 → median 0; item 2 is under-allocated.
			"mixed",
			[]PlannedItem{{20, 10, true}, {5, 10, true}, {10, 10, false}, {0, 10, true}},
			Diagnostics{Precision: f(2.0 / 3), Recall: f(2.0 / 3), CostForecast: f(0), UnderAllocation: f(0.5)},
		},
		// An even |S| takes the mean of the two middle logs: (−2 + 1) / 2.
		{"even median", []PlannedItem{{25, 100, true}, {200, 100, true}}, Diagnostics{Precision: f(1), Recall: f(1), CostForecast: f(-0.5), UnderAllocation: f(0.5)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Diagnose(tt.items)
			for _, c := range []struct {
				name      string
				got, want *float64
			}{{"precision", got.Precision, tt.want.Precision}, {"recall", got.Recall, tt.want.Recall},
				{"cost forecast", got.CostForecast, tt.want.CostForecast}, {"under-allocation", got.UnderAllocation, tt.want.UnderAllocation}} {
				if (c.got == nil) != (c.want == nil) || c.got != nil && math.Abs(*c.got-*c.want) > 1e-15 {
					t.Errorf("%s = %v, want %v", c.name, show(c.got), show(c.want))
				}
			}
		})
	}
}

func show(f *float64) any {
	if f == nil {
		return "undefined"
	}
	return *f
}

func TestDecompose(t *testing.T) {
	tests := []struct {
		name                string
		voracle, vs, vu, ve float64
		want                Losses
		ok                  bool
	}{
		{"all lost at each step", 4, 3, 2, 1, Losses{0.25, 0.25, 0.25}, true},
		{"enforcement helps", 4, 4, 2, 3, Losses{0, 0.5, -0.25}, true},
		{"V_S within ε above the oracle", 4, 4 + 1e-10, 4, 4, Losses{}, true},
		{"V_oracle = 0", 0, 0, 0, 0, Losses{}, false},
		{"NaN", 4, math.NaN(), 1, 1, Losses{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Decompose(tt.voracle, tt.vs, tt.vu, tt.ve)
			if ok != tt.ok || got != tt.want {
				t.Errorf("Decompose = %+v, %v; want %+v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}
