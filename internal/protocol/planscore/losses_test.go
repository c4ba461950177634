package planscore

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/execution"
	"github.com/triage-eval/triage/internal/protocol/knapsack"
	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/pool"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// TestLossesTable checks the decomposition of plans whose every term is
// worked out by hand. The pool: a (c 10, y 1), b (c 20, y 1), c (c 30, y 0),
// d (c 40, y 1); B = 60, so V_oracle = 2 (a + b, or a + d... any two of the
// solvable items that fit: a + b = 30, a + d = 50).
func TestLossesTable(t *testing.T) {
	items := []pool.Item{
		{ID: "a", Cost: 10, Value: 1, Correct: true},
		{ID: "b", Cost: 20, Value: 1, Correct: true},
		{ID: "c", Cost: 30, Value: 1},
		{ID: "d", Cost: 40, Value: 1, Correct: true},
	}
	tests := []struct {
		name                    string
		plan                    []execution.Step
		vs, vu, ve              float64
		selection, order, enfor float64
	}{
		// S = {a, b}: V_S = 2 = V_oracle; run in order both fit.
		{"optimal", []execution.Step{{ID: "a", Tokens: 10}, {ID: "b", Tokens: 20}}, 2, 2, 2, 0, 0, 0},
		// S = {c, a}: V_S = 1 (only a is solvable).
		{"bad selection", []execution.Step{{ID: "c", Tokens: 30}, {ID: "a", Tokens: 10}}, 1, 1, 1, 0.5, 0, 0},
		// S = {c, d, a}: V_S = 2 (a + d = 50 ≤ 60), but c (30) then d (40 > 30)
		// stops: V_U = 0.
		{"bad order", []execution.Step{{ID: "c", Tokens: 30}, {ID: "d", Tokens: 40}, {ID: "a", Tokens: 10}}, 2, 0, 0, 0, 1, 0},
		// S = {a, b}, under-allocated b: E truncates it.
		{"enforcement loss", []execution.Step{{ID: "a", Tokens: 10}, {ID: "b", Tokens: 5}}, 2, 2, 1, 0, 0, 0.5},
		// S = {d, a} with d given 40: U runs d then a (V_U 2); a plan that
		// lets E skip a costly unsolvable item: c allocated 1 under E is
		// truncated cheaply, under U it spends 30 and stops d.
		{"enforcement gain", []execution.Step{{ID: "c", Tokens: 1}, {ID: "d", Tokens: 40}, {ID: "a", Tokens: 10}}, 2, 0, 2, 0, 1, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Score(Input{Items: items, Plan: tt.plan, Budget: 60, Oracle: 2, Random: 1})
			if err != nil {
				t.Fatal(err)
			}
			if got.Losses == nil {
				t.Fatal("Losses = nil, want a decomposition")
			}
			want := metrics.Losses{Selection: tt.selection, Order: tt.order, Enforcement: tt.enfor}
			if got.PlannedValue != tt.vs || *got.Losses != want {
				t.Errorf("V_S, losses = %v, %+v; want %v, %+v", got.PlannedValue, *got.Losses, tt.vs, want)
			}
		})
	}
}

// TestLossesUndefined checks that no decomposition is given without items
// or when V_oracle = 0.
func TestLossesUndefined(t *testing.T) {
	items := []pool.Item{{ID: "a", Cost: 10, Value: 1}}
	for _, in := range []Input{
		{Oracle: 2, Random: 1, Values: []RegimeValue{{vocab.Advisory, 1}}},
		{Items: items, Plan: []execution.Step{{ID: "a", Tokens: 10}}, Budget: 10},
	} {
		got, err := Score(in)
		if err != nil {
			t.Fatal(err)
		}
		if got.Losses != nil {
			t.Errorf("Losses = %+v, want nil", *got.Losses)
		}
	}
}

// TestLossesStateLimit checks that a spent knapsack budget is an error, not
// a silently missing decomposition.
func TestLossesStateLimit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	items := make([]pool.Item, 200)
	plan := make([]execution.Step, len(items))
	var total int64
	for i := range items {
		c := int64(100 + rng.IntN(900))
		items[i] = pool.Item{ID: string(rune('A'+i%26)) + string(rune('a'+i/26)), Cost: c, Value: float64(c) + rng.Float64(), Correct: true}
		plan[i] = execution.Step{ID: items[i].ID, Tokens: c}
		total += c
	}
	_, err := Score(Input{Items: items, Plan: plan, Budget: total / 2, Oracle: 1, States: knapsack.NewStateBudget(1)})
	if err == nil {
		t.Fatal("Score with a spent state budget: nil error")
	}
}

// TestLossesProperty checks on random small pools and plans that V_S is the
// brute-force best subset of S that fits B, that V_U ≤ V_S ≤ V_oracle, and
// that selection + order = R̃_U and selection + order + enforcement = R̃_E
// to 1e-12, with R̃ from the regimes' own scores.
func TestLossesProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 5))
	for trial := range 3000 {
		n := 1 + rng.IntN(10)
		items := make([]pool.Item, n)
		var total int64
		for i := range items {
			v := 1.0
			if trial%2 == 1 { // half the trials with general values
				v = 0.5 + 4*rng.Float64()
			}
			items[i] = pool.Item{ID: string(rune('a' + i)), Cost: int64(1 + rng.IntN(50)), Value: v, Correct: rng.IntN(3) > 0}
			total += items[i].Cost
		}
		budget := int64(rng.Float64() * float64(total))
		var plan []execution.Step
		for _, i := range rng.Perm(n)[:rng.IntN(n+1)] {
			plan = append(plan, execution.Step{ID: items[i].ID, Tokens: int64(1 + rng.IntN(60))})
		}
		oracle, err := knapsack.Solve(t.Context(), items, budget)
		if err != nil {
			t.Fatal(err)
		}
		p, err := execution.NewPool(items)
		if err != nil {
			t.Fatal(err)
		}
		norm := execution.Normalize(p, plan)
		vu := execution.RunAdvisory(p, norm, budget).Value
		ve := execution.RunEnforced(p, norm, budget).Value
		got, err := Score(Input{Items: items, Plan: plan, Budget: budget, Oracle: oracle.Value,
			Values: []RegimeValue{{vocab.Advisory, vu}, {vocab.Enforced, ve}}})
		if err != nil {
			t.Fatal(err)
		}
		if oracle.Value <= 0 {
			if got.Losses != nil {
				t.Fatalf("trial %d: losses with V_oracle = 0", trial)
			}
			continue
		}
		if want := bruteForceVS(items, plan, budget); math.Abs(got.PlannedValue-want) > 1e-12 {
			t.Fatalf("trial %d: V_S = %v, brute force %v", trial, got.PlannedValue, want)
		}
		if got.PlannedValue < vu-1e-12 || got.PlannedValue > oracle.Value+1e-12 {
			t.Fatalf("trial %d: V_U %v ≤ V_S %v ≤ V_oracle %v fails", trial, vu, got.PlannedValue, oracle.Value)
		}
		l := got.Losses
		if l.Selection < -1e-12 || l.Order < -1e-12 {
			t.Fatalf("trial %d: negative selection or order loss: %+v", trial, *l)
		}
		ru, re := got.Regimes[0].Regret, got.Regimes[1].Regret
		if d := math.Abs(l.Selection + l.Order - ru); d > 1e-12 {
			t.Fatalf("trial %d: selection + order − R̃_U = %g", trial, d)
		}
		if d := math.Abs(l.Selection + l.Order + l.Enforcement - re); d > 1e-12 {
			t.Fatalf("trial %d: selection + order + enforcement − R̃_E = %g", trial, d)
		}
	}
}

// bruteForceVS enumerates every subset of the plan's (known, positive)
// items and returns the best value of one that fits the budget.
func bruteForceVS(items []pool.Item, plan []execution.Step, budget int64) float64 {
	index := map[string]int{}
	for i, it := range items {
		index[it.ID] = i
	}
	var set []pool.Item
	seen := map[string]bool{}
	for _, st := range plan {
		if i, ok := index[st.ID]; ok && st.Tokens > 0 && !seen[st.ID] {
			seen[st.ID] = true
			set = append(set, items[i])
		}
	}
	best := 0.0
	for mask := 0; mask < 1<<len(set); mask++ {
		var cost int64
		var value float64
		for k, it := range set {
			if mask&(1<<k) != 0 {
				cost += it.Cost
				value += it.Gain()
			}
		}
		if cost <= budget && value > best {
			best = value
		}
	}
	return best
}
