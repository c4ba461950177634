package planscore

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/execution"
	"github.com/triage-eval/triage/internal/protocol/knapsack"
	"github.com/triage-eval/triage/internal/protocol/pool"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// BenchmarkScore scores the paper's call as the Scoring service does: a
// 30-item pool at α = 0.5 with unit values, a plan over every item, both
// regimes, with and without injected unsolvable items.
func BenchmarkScore(b *testing.B) {
	for _, injected := range []bool{false, true} {
		b.Run(fmt.Sprintf("unsolvable=%v", injected), func(b *testing.B) {
			in := paperInput(3, injected)
			b.ReportAllocs()
			for b.Loop() {
				in.States = knapsack.NewStateBudget(1 << 24)
				if _, err := Score(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// paperInput is a 30-item pool at α = 0.5, a plan allocating 80–120% of
// each item's cost, and regime values to score; every fifth item is marked
// unsolvable when injected.
func paperInput(seed uint64, injected bool) Input {
	r := rand.New(rand.NewPCG(seed, 30))
	var in Input
	var total int64
	for i := range 30 {
		it := pool.Item{ID: fmt.Sprintf("p%d", i+1), Cost: 500 + r.Int64N(7693), Value: 1, Correct: r.IntN(2) == 0}
		in.Items = append(in.Items, it)
		in.Plan = append(in.Plan, execution.Step{ID: it.ID, Tokens: it.Cost * int64(80+r.IntN(40)) / 100})
		total += it.Cost
	}
	if injected {
		in.Unsolvable = make([]bool, len(in.Items))
		for i := range in.Unsolvable {
			in.Unsolvable[i] = i%5 == 0
		}
	}
	in.Budget = total / 2
	in.Oracle, in.Random = 12, 6
	in.Values = []RegimeValue{{vocab.Advisory, 9}, {vocab.Enforced, 7}}
	return in
}
