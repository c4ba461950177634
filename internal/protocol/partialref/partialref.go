package partialref

import (
	"errors"
	"math/big"
	"slices"

	"github.com/triage-eval/triage/internal/protocol/execution"
	"github.com/triage-eval/triage/internal/protocol/pool"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// Record is one population member's ground truth for one item.
type Record struct {
	// Cost is the member's cost c > 0 on the item.
	Cost int64
	// Correct is the member's y on the item.
	Correct bool
}

// ErrNoPopulation is returned when no population member has graded any item
// of the pool: there is nothing known about the items (SPEC §4: such cells
// are excluded as no_population).
var ErrNoPopulation = errors.New("partialref: no population member has graded an item of the pool")

// Plans are the three reference plans of one solver's pool at one budget,
// in the planner's vocabulary: steps naming the pool's item ids.
type Plans map[vocab.Strategy][]execution.Step

// Estimates are what the population knows about a pool's items, on the
// solver's own scale; build them once per pool and plan every budget from
// them.
type Estimates struct {
	items []pool.Item
	// p is p̂_i; scaled is ĉ'_i (exact); alloc is ⌈ĉ'_i⌉.
	p      []*big.Rat
	scaled []*big.Rat
	alloc  []int64
}

// Estimate computes p̂ and ĉ' for the solver's gradeable items of a pool
// (pool order) from the population's records, population[i] holding the
// records of items[i] (any order, possibly none). It returns ErrNoPopulation
// when no item has a record. Costs must be positive.
func Estimate(items []pool.Item, population [][]Record) (*Estimates, error) {
	if len(population) != len(items) {
		return nil, errors.New("partialref: one list of records per item is required")
	}
	n := len(items)
	e := &Estimates{items: items, p: make([]*big.Rat, n), scaled: make([]*big.Rat, n), alloc: make([]int64, n)}
	chat := make([]*big.Rat, n)
	sumP, sumC := new(big.Rat), new(big.Rat)
	known := 0
	for i, recs := range population {
		if len(recs) == 0 {
			continue
		}
		e.p[i], chat[i] = estimate(recs)
		sumP.Add(sumP, e.p[i])
		sumC.Add(sumC, chat[i])
		known++
	}
	if known == 0 {
		return nil, ErrNoPopulation
	}
	count := new(big.Rat).SetInt64(int64(known))
	meanP, meanC := new(big.Rat).Quo(sumP, count), new(big.Rat).Quo(sumC, count)
	total, totalHat := new(big.Rat), new(big.Rat)
	for i := range items {
		if e.p[i] == nil {
			e.p[i], chat[i] = meanP, meanC
		}
		total.Add(total, new(big.Rat).SetInt64(items[i].Cost))
		totalHat.Add(totalHat, chat[i])
	}
	scale := new(big.Rat).Quo(total, totalHat) // ĉ > 0: costs are positive
	for i := range items {
		e.scaled[i] = new(big.Rat).Mul(chat[i], scale)
		e.alloc[i] = ceil(e.scaled[i])
	}
	return e, nil
}

// estimate returns p̂ (mean y) and ĉ (median cost) of an item's records.
func estimate(recs []Record) (*big.Rat, *big.Rat) {
	costs := make([]int64, len(recs))
	correct := int64(0)
	for k, r := range recs {
		costs[k] = r.Cost
		if r.Correct {
			correct++
		}
	}
	slices.Sort(costs)
	m := len(costs) / 2
	med := new(big.Rat).SetInt64(costs[m])
	if len(costs)%2 == 0 {
		med.Add(med, new(big.Rat).SetInt64(costs[m-1]))
		med.Quo(med, big.NewRat(2, 1))
	}
	return big.NewRat(correct, int64(len(recs))), med
}

// ceil returns ⌈r⌉ for r > 0.
func ceil(r *big.Rat) int64 {
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if m.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	return q.Int64()
}

// Plans returns the three reference plans at budget B.
func (e *Estimates) Plans(budget int64) Plans {
	return Plans{
		vocab.Population:      e.population(budget),
		vocab.SelfFeasibility: e.selfFeasibility(budget),
		vocab.SelfCost:        e.selfCost(budget),
	}
}

// population: p̂ > 0 by p̂ / ĉ' descending, a = ⌈ĉ'⌉.
func (e *Estimates) population(budget int64) []execution.Step {
	idx := e.where(func(i int) bool { return e.p[i].Sign() > 0 })
	e.sortByRatio(idx, e.scaled)
	return e.greedy(idx, e.alloc, budget)
}

// selfFeasibility: y = 1 by ĉ' ascending, a = ⌈ĉ'⌉.
func (e *Estimates) selfFeasibility(budget int64) []execution.Step {
	idx := e.where(func(i int) bool { return e.items[i].Correct })
	slices.SortStableFunc(idx, func(a, b int) int { return e.scaled[a].Cmp(e.scaled[b]) })
	return e.greedy(idx, e.alloc, budget)
}

// selfCost: p̂ > 0 by p̂ / c descending, a = c.
func (e *Estimates) selfCost(budget int64) []execution.Step {
	idx := e.where(func(i int) bool { return e.p[i].Sign() > 0 })
	costs := make([]*big.Rat, len(e.items))
	alloc := make([]int64, len(e.items))
	for i, it := range e.items {
		costs[i], alloc[i] = new(big.Rat).SetInt64(it.Cost), it.Cost
	}
	e.sortByRatio(idx, costs)
	return e.greedy(idx, alloc, budget)
}

// where returns the indices of the items that keep, in pool order.
func (e *Estimates) where(keep func(i int) bool) []int {
	var idx []int
	for i := range e.items {
		if keep(i) {
			idx = append(idx, i)
		}
	}
	return idx
}

// sortByRatio orders idx by p̂_i / cost_i descending, ties in pool order,
// comparing p̂_a·cost_b with p̂_b·cost_a (costs are positive).
func (e *Estimates) sortByRatio(idx []int, cost []*big.Rat) {
	slices.SortStableFunc(idx, func(a, b int) int {
		l := new(big.Rat).Mul(e.p[a], cost[b])
		r := new(big.Rat).Mul(e.p[b], cost[a])
		return r.Cmp(l)
	})
}

// greedy keeps, in order, each item whose allocation still fits the budget.
func (e *Estimates) greedy(idx []int, alloc []int64, budget int64) []execution.Step {
	steps := []execution.Step{}
	var used int64
	for _, i := range idx {
		if alloc[i] <= budget-used {
			used += alloc[i]
			steps = append(steps, execution.Step{ID: e.items[i].ID, Tokens: alloc[i]})
		}
	}
	return steps
}
