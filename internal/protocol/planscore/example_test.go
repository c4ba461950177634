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
// Executor and the Oracle; Score turns them into η, R̃, D and W.
func ExampleScore() {
	res := planscore.Score(planscore.Input{
		Items: []pool.Item{
			{ID: "p1", Cost: 100, Value: 1, Correct: true},
			{ID: "p2", Cost: 200, Value: 1, Correct: true},
			{ID: "p3", Cost: 300, Value: 1},
		},
		Unsolvable: []bool{false, false, true},
		Plan:       []execution.Step{{ID: "p1", Tokens: 120}, {ID: "p3", Tokens: 40}},
		Oracle:     2,
		Random:     1.2,
		Values:     []planscore.RegimeValue{{Regime: vocab.Advisory, Value: 1}, {Regime: vocab.Enforced, Value: 1}},
	})
	for _, r := range res.Regimes {
		fmt.Printf("%s: η = %.2f, R̃ = %.2f\n", r.Regime, r.Eta, r.Regret)
	}
	fmt.Printf("D = %.2f, W = %.2f\n", *res.Detection, *res.Waste)
	// Output:
	// U: η = -0.25, R̃ = 0.50
	// E: η = -0.25, R̃ = 0.50
	// D = 0.00, W = 0.25
}
