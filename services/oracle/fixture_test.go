package oracle_test

import (
	"fmt"
	"math/rand/v2"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
)

// pool30 returns a reproducible 30-item pool like the paper's: costs of a
// few hundred to a few thousand tokens, about half solved, unit values.
func pool30(seed uint64) []*triagev1.GroundTruthItem {
	rng := rand.New(rand.NewPCG(seed, 0x7e57))
	items := make([]*triagev1.GroundTruthItem, 30)
	for i := range items {
		items[i] = &triagev1.GroundTruthItem{
			Id:      fmt.Sprintf("p%d", i+1),
			Cost:    500 + rng.Int64N(7693),
			Correct: rng.IntN(2) == 0,
		}
	}
	return items
}

func alphas(as ...float64) []*triagev1.Budget {
	out := make([]*triagev1.Budget, len(as))
	for i, a := range as {
		out[i] = &triagev1.Budget{Kind: &triagev1.Budget_Alpha{Alpha: a}}
	}
	return out
}

func tokens(ts ...int64) []*triagev1.Budget {
	out := make([]*triagev1.Budget, len(ts))
	for i, t := range ts {
		out[i] = &triagev1.Budget{Kind: &triagev1.Budget_Tokens{Tokens: t}}
	}
	return out
}
