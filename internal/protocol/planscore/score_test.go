package planscore

import (
	"testing"

	"github.com/triage-eval/triage/internal/protocol/execution"
	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/pool"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

func TestScoreRegimes(t *testing.T) {
	in := Input{Oracle: 3, Random: 1, Values: []RegimeValue{{vocab.Advisory, 2}, {vocab.Enforced, 0.5}}}
	got, err := Score(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Regimes) != 2 {
		t.Fatalf("got %d regimes, want 2", len(got.Regimes))
	}
	// η = (V_M − V_random) / (V_oracle − V_random), R̃ = (V_oracle − V_M) / V_oracle.
	want := []RegimeScore{
		{Regime: vocab.Advisory, Value: 2, PoolScore: metrics.PoolScore{Eta: 0.5, Regret: 1.0 / 3, RegretDefined: true, VOracle: 3, Degenerate: metrics.Informative}},
		{Regime: vocab.Enforced, Value: 0.5, PoolScore: metrics.PoolScore{Eta: -0.25, Regret: 2.5 / 3, RegretDefined: true, VOracle: 3, Degenerate: metrics.Informative}},
	}
	for i, w := range want {
		if got.Regimes[i] != w {
			t.Errorf("regime %d = %+v, want %+v", i, got.Regimes[i], w)
		}
	}
	if got.Detection != nil || got.Waste != nil {
		t.Errorf("D, W = %v, %v for a pool without injection, want nil, nil", got.Detection, got.Waste)
	}
}

func TestScoreDegenerate(t *testing.T) {
	tests := []struct {
		name           string
		oracle, random float64
		vm             float64
		want           metrics.Degeneracy
		eta            float64
	}{
		{"informative", 3, 1, 2, metrics.Informative, 0.5},
		{"D1", 0, 0, 0, metrics.DegenerateNoValue, 1},
		{"D2 reached", 2, 2, 2, metrics.DegenerateCollapse, 1},
		{"D2 missed", 2, 2, 1, metrics.DegenerateCollapse, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Score(Input{Oracle: tt.oracle, Random: tt.random, Values: []RegimeValue{{vocab.Advisory, tt.vm}}})
			if err != nil {
				t.Fatal(err)
			}
			rs := res.Regimes[0]
			if rs.Degenerate != tt.want || rs.Eta != tt.eta {
				t.Errorf("degenerate, η = %q, %v; want %q, %v", rs.Degenerate, rs.Eta, tt.want, tt.eta)
			}
		})
	}
}

func TestScoreInjection(t *testing.T) {
	items := []pool.Item{{ID: "a", Cost: 10, Value: 1, Correct: true}, {ID: "b", Cost: 20, Value: 1}, {ID: "c", Cost: 30, Value: 1}}
	tests := []struct {
		name       string
		unsolvable []bool
		plan       []execution.Step
		detection  *float64
		waste      float64
	}{
		{"U avoided", []bool{false, true, true}, []execution.Step{{ID: "a", Tokens: 10}}, ptr(1), 0},
		{"half of U planned", []bool{false, true, true}, []execution.Step{{ID: "a", Tokens: 10}, {ID: "c", Tokens: 30}}, ptr(0.5), 0.75},
		{"empty U", []bool{false, false, false}, []execution.Step{{ID: "b", Tokens: 5}}, nil, 0},
		{"empty plan", []bool{true, false, false}, nil, ptr(1), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Score(Input{Items: items, Unsolvable: tt.unsolvable, Plan: tt.plan, Budget: 60, Oracle: 1, Random: 0.5})
			if err != nil {
				t.Fatal(err)
			}
			if (got.Detection == nil) != (tt.detection == nil) || got.Detection != nil && *got.Detection != *tt.detection {
				t.Errorf("D = %v, want %v", deref(got.Detection), deref(tt.detection))
			}
			if got.Waste == nil || *got.Waste != tt.waste {
				t.Errorf("W = %v, want %v", deref(got.Waste), tt.waste)
			}
		})
	}
}

func ptr(f float64) *float64 { return &f }

func deref(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}
