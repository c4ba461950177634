package planscore_test

import (
	"fmt"

	"github.com/triage-eval/triage/internal/protocol/execution"
	"github.com/triage-eval/triage/internal/protocol/planscore"
	"github.com/triage-eval/triage/internal/protocol/pool"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// A plan executed under both regimes on a pool with one injected
// unsolvable item: V_M per regime and the references come from the
// Executor and the Oracle; Score turns them into η, R̃, D and W, and,
// from the items, the regret decomposition and the plan diagnostics.
func ExampleScore() {
	res, err := planscore.Score(planscore.Input{
		Items: []pool.Item{
			{ID: "p1", Cost: 100, Value: 1, Correct: true},
			{ID: "p2", Cost: 200, Value: 1, Correct: true},
			{ID: "p3", Cost: 300, Value: 1},
		},
		Unsolvable: []bool{false, false, true},
		Plan:       []execution.Step{{ID: "p1", Tokens: 120}, {ID: "p3", Tokens: 40}},
		Budget:     300,
		Oracle:     2,
		Random:     1.2,
		Values:     []planscore.RegimeValue{{Regime: vocab.Advisory, Value: 1}, {Regime: vocab.Enforced, Value: 1}},
	})
	if err != nil {
		panic(err)
	}
	for _, r := range res.Regimes {
		fmt.Printf("%s: η = %.2f, R̃ = %.2f\n", r.Regime, r.Eta, r.Regret)
	}
	fmt.Printf("D = %.2f, W = %.2f\n", *res.Detection, *res.Waste)
	fmt.Printf("V_S = %.0f: selection %.2f, order %.2f, enforcement %.2f\n",
		res.PlannedValue, res.Losses.Selection, res.Losses.Order, res.Losses.Enforcement)
	fmt.Printf("precision %.2f, recall %.2f, cost forecast %.2f, under-allocation %.2f\n",
		*res.Precision, *res.Recall, *res.CostForecast, *res.UnderAllocation)
	// Output:
	// U: η = -0.25, R̃ = 0.50
	// E: η = -0.25, R̃ = 0.50
	// D = 0.00, W = 0.25
	// V_S = 1: selection 0.50, order 0.00, enforcement 0.00
	// precision 0.50, recall 0.50, cost forecast -1.32, under-allocation 0.00
}
