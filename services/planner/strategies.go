package planner

import (
	"math"
	"math/rand/v2"
	"slices"
	"unicode/utf8"

	"github.com/triage-eval/triage/internal/planning/prompts"
	"github.com/triage-eval/triage/internal/protocol/execution"
)

// Reference strategies: planners that use only what a planner may see
// (planner ids p1 … pn, texts, values, the budget), as points of comparison
// for models. Their plans name the planner ids and are read back like a
// model's.
//
//   - random: every problem, in an order shuffled by the request's seed
//     (math/rand/v2 PCG seeded with (seed, 0x7472696167)); allocations
//     proportional to text length.
//   - shortest_first: every problem, shortest text first (ties keep pool
//     order), allocations proportional to text length — "short problems are
//     quick" as a heuristic.
//   - all_in_order: every problem in pool order, the budget split equally.
//
// Text length is counted in Unicode code points. Proportional allocations
// are a_i = ⌊B·len_i/Σlen⌋ (so Σa ≤ B); a problem whose share rounds to 0 is
// not attempted, as SPEC §2 prescribes for zero allocations.

func strategyRandom(problems []prompts.Problem, budget int64, seed uint64) []execution.Step {
	order := identity(len(problems))
	rand.New(rand.NewPCG(seed, 0x7472696167)).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	return proportional(problems, order, budget)
}

func strategyShortestFirst(problems []prompts.Problem, budget int64) []execution.Step {
	order := identity(len(problems))
	slices.SortStableFunc(order, func(a, b int) int {
		return utf8.RuneCountInString(problems[a].Text) - utf8.RuneCountInString(problems[b].Text)
	})
	return proportional(problems, order, budget)
}

func strategyAllInOrder(problems []prompts.Problem, budget int64) []execution.Step {
	steps := make([]execution.Step, len(problems))
	share := int64(0)
	if len(problems) > 0 {
		share = budget / int64(len(problems))
	}
	for i, p := range problems {
		steps[i] = execution.Step{ID: p.ID, Tokens: share}
	}
	return steps
}

// proportional allocates ⌊B·len_i/Σlen⌋ to each problem, in order.
func proportional(problems []prompts.Problem, order []int, budget int64) []execution.Step {
	var total float64
	for _, p := range problems {
		total += float64(utf8.RuneCountInString(p.Text))
	}
	steps := make([]execution.Step, len(order))
	for k, i := range order {
		share := int64(0)
		if total > 0 {
			share = int64(math.Floor(float64(budget) * float64(utf8.RuneCountInString(problems[i].Text)) / total))
		}
		steps[k] = execution.Step{ID: problems[i].ID, Tokens: share}
	}
	return steps
}

func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
