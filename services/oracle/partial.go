package oracle

import (
	"errors"
	"fmt"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/protoconv"
	"github.com/triage-eval/triage/internal/protocol/partialref"
	"github.com/triage-eval/triage/internal/protocol/pool"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// partialReferences sets the partial-information reference plans of every
// budget (SPEC §4) from the request's population, or reports that it has
// none (partialref.ErrNoPopulation). refs and budgets are in request order.
func partialReferences(items []pool.Item, pop *triagev1.Population, budgets []int64, refs []*triagev1.BudgetReferences) (noPopulation bool, err error) {
	recs, err := populationRecords(items, pop)
	if err != nil {
		return false, err
	}
	est, err := partialref.Estimate(items, recs)
	if errors.Is(err, partialref.ErrNoPopulation) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	for i, b := range budgets {
		plans := est.Plans(b)
		for _, s := range vocab.PartialReferences() {
			steps := plans[s]
			plan := make([]*triagev1.PlanStep, len(steps))
			for k, st := range steps {
				plan[k] = &triagev1.PlanStep{Id: st.ID, Tokens: st.Tokens}
			}
			refs[i].PartialReferences = append(refs[i].PartialReferences, &triagev1.PartialReferencePlan{
				Reference: protoconv.PartialReferenceProto(s), Plan: plan,
			})
		}
	}
	return false, nil
}

// populationRecords lays the population's records out by item, in pool
// order. An unvalidated request naming an unknown item or a non-positive
// cost fails here rather than reaching the arithmetic.
func populationRecords(items []pool.Item, pop *triagev1.Population) ([][]partialref.Record, error) {
	index := make(map[string]int, len(items))
	for i, it := range items {
		index[it.ID] = i
	}
	out := make([][]partialref.Record, len(items))
	for _, pi := range pop.GetItems() {
		i, ok := index[pi.GetId()]
		if !ok {
			return nil, fmt.Errorf("population names item %q, which is not in the pool", pi.GetId())
		}
		for _, r := range pi.GetRecords() {
			if r.GetCost() <= 0 {
				return nil, fmt.Errorf("population record of item %q has cost %d; costs are positive", pi.GetId(), r.GetCost())
			}
			out[i] = append(out[i], partialref.Record{Cost: r.GetCost(), Correct: r.GetCorrect()})
		}
	}
	return out, nil
}
