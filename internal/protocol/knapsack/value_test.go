package knapsack

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestValueWithinMatchesSolveWithin checks that ValueWithin returns
// SolveWithin's value bit for bit, its error, and charges a shared state
// budget alike, on either side of the 64-item mark and through every
// method (all fit, uniform values, the general search, a spent budget).
func TestValueWithinMatchesSolveWithin(t *testing.T) {
	tests := []struct {
		name   string
		n      int
		value  func(*rand.Rand) float64
		alpha  float64
		states int64 // 0: unbounded
	}{
		{"fits", 30, unitInterval, 1.1, 0},
		{"uniform/30", 30, nil, 0.5, 0},
		{"uniform/100", 100, nil, 0.5, 0},
		{"general/30", 30, unitInterval, 0.5, 0},
		{"general/64", 64, unitInterval, 0.3, 0},
		{"general/100", 100, unitInterval, 0.5, 0},
		{"general/limited", 40, unitInterval, 0.5, 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			failed := 0
			for seed := range uint64(20) {
				items, budget := genInstance(newRand(seed), tt.n, 1, 1000, 0.6, tt.value, tt.alpha)
				var solveStates, valueStates *StateBudget
				if tt.states > 0 {
					solveStates, valueStates = NewStateBudget(tt.states), NewStateBudget(tt.states)
				}
				sol, solveErr := SolveWithin(context.Background(), items, budget, solveStates)
				got, valueErr := ValueWithin(context.Background(), items, budget, valueStates)
				if fmt.Sprint(solveErr) != fmt.Sprint(valueErr) {
					t.Fatalf("seed %d: errors %v (SolveWithin) vs %v (ValueWithin)", seed, solveErr, valueErr)
				}
				if solveErr != nil {
					failed++
				}
				if math.Float64bits(got) != math.Float64bits(sol.Value) {
					t.Errorf("seed %d: ValueWithin = %v, want SolveWithin's %v", seed, got, sol.Value)
				}
				if a, b := solveStates.Used(), valueStates.Used(); a != b {
					t.Errorf("seed %d: states used %d (SolveWithin) vs %d (ValueWithin)", seed, a, b)
				}
			}
			if wantFail := tt.states > 0; (failed > 0) != wantFail {
				t.Errorf("%d of 20 instances ran out of states, want some: %v", failed, wantFail)
			}
		})
	}
}

// TestValueWithinErrors checks the input errors, which ValueWithin shares
// with SolveWithin.
func TestValueWithinErrors(t *testing.T) {
	items, _ := genInstance(newRand(1), 5, 1, 10, 1, nil, 1)
	if _, err := ValueWithin(context.Background(), items, -1, nil); err == nil {
		t.Error("ValueWithin with a negative budget: no error")
	}
	items[2].Cost = 0
	if _, err := ValueWithin(context.Background(), items, 10, nil); err == nil {
		t.Error("ValueWithin with a zero cost: no error")
	}
}
