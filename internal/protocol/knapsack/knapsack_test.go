package knapsack

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/pool"
)

// it builds a solvable item; bad builds an unsolvable one.
func it(cost int64, value float64) pool.Item {
	return pool.Item{ID: "x", Cost: cost, Value: value, Correct: true}
}

func bad(cost int64, value float64) pool.Item {
	return pool.Item{ID: "x", Cost: cost, Value: value, Correct: false}
}

// checkSolution verifies the invariants every Solution must satisfy.
func checkSolution(t *testing.T, items []pool.Item, budget int64, sol Solution) {
	t.Helper()
	if sol.Chosen == nil {
		t.Fatalf("Chosen is nil")
	}
	mark := make([]bool, len(items))
	var cost int64
	for n, i := range sol.Chosen {
		if i < 0 || i >= len(items) {
			t.Fatalf("Chosen[%d] = %d out of range", n, i)
		}
		if mark[i] {
			t.Fatalf("index %d chosen twice: %v", i, sol.Chosen)
		}
		mark[i] = true
		if !items[i].Correct || items[i].Value <= 0 {
			t.Fatalf("unsolvable item %d chosen: %v", i, sol.Chosen)
		}
		if n > 0 {
			p := sol.Chosen[n-1]
			if items[p].Cost > items[i].Cost || (items[p].Cost == items[i].Cost && p > i) {
				t.Fatalf("Chosen not in plan order at %d: %v", n, sol.Chosen)
			}
		}
		cost += items[i].Cost
	}
	if cost != sol.Cost {
		t.Fatalf("Cost = %d, Σ chosen costs = %d", sol.Cost, cost)
	}
	if cost > budget {
		t.Fatalf("Cost %d exceeds budget %d", cost, budget)
	}
	if want := pool.SumGain(items, mark); math.Float64bits(sol.Value) != math.Float64bits(want) {
		t.Fatalf("Value = %v, pool.SumGain = %v (not bit-identical)", sol.Value, want)
	}
}

func TestSolveEdgeCases(t *testing.T) {
	tests := []struct {
		name   string
		items  []pool.Item
		budget int64
		want   []int
		value  float64
	}{
		{"nil items", nil, 10, []int{}, 0},
		{"empty items", []pool.Item{}, 10, []int{}, 0},
		{"nothing solvable", []pool.Item{bad(1, 1), bad(2, 1)}, 10, []int{}, 0},
		{"budget zero", []pool.Item{it(1, 1), it(2, 1)}, 0, []int{}, 0},
		{"budget zero general", []pool.Item{it(1, 1), it(2, 3)}, 0, []int{}, 0},
		{"one item costlier than budget", []pool.Item{it(10, 1)}, 9, []int{}, 0},
		{"one item exactly the budget", []pool.Item{it(10, 1)}, 10, []int{0}, 1},
		{"all fit, plan order", []pool.Item{it(3, 1), it(1, 1), bad(1, 1), it(2, 1)}, 100, []int{1, 3, 0}, 3},
		{"all fit, general", []pool.Item{it(3, 0.5), it(1, 2), it(2, 0.25)}, 6, []int{1, 2, 0}, 2.75},
		{"budget beyond total", []pool.Item{it(5, 1), it(5, 1)}, math.MaxInt64, []int{0, 1}, 2},
		{"uniform ties by index", []pool.Item{it(3, 1), it(3, 1), it(3, 1)}, 6, []int{0, 1}, 2},
		{"uniform cheapest first", []pool.Item{it(5, 1), it(3, 1), it(3, 1), it(5, 1)}, 8, []int{1, 2}, 2},
		{"uniform skips unsolvable", []pool.Item{bad(1, 1), it(4, 1), bad(1, 1), it(2, 1), it(9, 1)}, 7, []int{3, 1}, 2},
		{"uniform other value", []pool.Item{it(4, 2.5), it(1, 2.5), it(2, 2.5), it(8, 2.5)}, 7, []int{1, 2, 0}, 7.5},
		{"uniform huge costs", []pool.Item{it(1<<60, 1), it(1<<59, 1), it(3, 1)}, 1 << 60, []int{2, 1}, 2},
		{"general classic", []pool.Item{it(10, 60), it(20, 100), it(30, 120)}, 50, []int{1, 2}, 220},
		{"general greedy trap", []pool.Item{it(1, 2), it(10, 10)}, 10, []int{1}, 10},
		{"general exact fit", []pool.Item{it(2, 1), it(3, 2), it(5, 3.5)}, 5, []int{2}, 3.5},
		{"general unsolvable not chosen", []pool.Item{bad(1, 100), it(2, 1), it(3, 2)}, 3, []int{2}, 2},
		{"general item above budget", []pool.Item{it(100, 5), it(1, 1), it(2, 1.5)}, 3, []int{1, 2}, 2.5},
		{"general huge costs", []pool.Item{it(1<<60, 1.2), it(1<<59, 1), it(1<<59-7, 1), it(7, 0.5)}, 1 << 60, []int{3, 2, 1}, 2.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sol, err := Solve(context.Background(), tc.items, tc.budget)
			if err != nil {
				t.Fatal(err)
			}
			checkSolution(t, tc.items, tc.budget, sol)
			if !slices.Equal(sol.Chosen, tc.want) {
				t.Errorf("Chosen = %v, want %v", sol.Chosen, tc.want)
			}
			if sol.Value != tc.value {
				t.Errorf("Value = %v, want %v", sol.Value, tc.value)
			}
		})
	}
}

func TestSolveErrors(t *testing.T) {
	tests := []struct {
		name   string
		items  []pool.Item
		budget int64
	}{
		{"negative budget", []pool.Item{it(1, 1)}, -1},
		{"negative budget, no items", nil, -5},
		{"zero cost", []pool.Item{it(1, 1), it(0, 1)}, 5},
		{"negative cost", []pool.Item{it(-3, 1)}, 5},
		{"non-positive cost of unsolvable item", []pool.Item{it(1, 1), bad(0, 1)}, 5},
		{"infinite value", []pool.Item{it(1, math.Inf(1)), it(1, 1)}, 5},
		{"cost overflow", []pool.Item{it(math.MaxInt64/2+1, 1), it(math.MaxInt64/2+1, 1)}, 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sol, err := Solve(context.Background(), tc.items, tc.budget)
			if err == nil {
				t.Fatalf("no error; got %+v", sol)
			}
		})
	}
}

func TestSolveDeterministic(t *testing.T) {
	r := newRand(11)
	for trial := range 50 {
		value := unitInterval
		if trial%2 == 0 {
			value = func(r *rand.Rand) float64 { return float64(1 + r.IntN(3)) }
		}
		items, budget := genInstance(r, 150, 1, 300, 0.8, value, 0.4)
		first, err := Solve(context.Background(), items, budget)
		if err != nil {
			t.Fatal(err)
		}
		again, err := Solve(context.Background(), slices.Clone(items), budget)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(first.Chosen, again.Chosen) || first.Value != again.Value {
			t.Fatalf("trial %d: two runs differ: %v vs %v", trial, first.Chosen, again.Chosen)
		}
	}
}
