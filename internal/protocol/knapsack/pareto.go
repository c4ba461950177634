package knapsack

import (
	"cmp"
	"context"
	"errors"
	"math"
	"slices"

	"github.com/triage-eval/triage/internal/protocol/pool"
)

// densityItem is a candidate of the general search.
type densityItem struct {
	density float64 // value / cost
	value   float64
	cost    int64
	index   int // index into the caller's items
}

// state is a Pareto-optimal partial solution: its cost, its value and the
// arena node of the last item it took (-1 for the empty set).
type state struct {
	cost  int64
	value float64
	node  int32
}

// node links one taken item (a position in density order) to the node of
// the items taken before it.
type node struct {
	item int32
	prev int32
}

// incumbent is the best feasible selection found so far: the items on the
// arena chain from node, plus the density-order positions from..to-1, plus
// (when greedy is set) the initial greedy selection instead of both.
type incumbent struct {
	value    float64
	node     int32
	from, to int
	greedy   []int32
}

// errTooLarge reports that the search outgrew its int32 arena.
var errTooLarge = errors.New("knapsack: search space too large")

// solveGeneral solves the instance with arbitrary positive values by a
// Nemhauser–Ullmann Pareto-frontier search with Dantzig-bound pruning (see
// the package documentation). It returns the chosen indices in no
// particular order.
func solveGeneral(ctx context.Context, items []pool.Item, solvable []int, budget int64, states *StateBudget) ([]int, error) {
	its, vmax := densityOrder(items, solvable, budget)
	m := len(its)
	if m == 0 {
		return []int{}, nil
	}
	lp := newLPBound(its)
	if lp.pc[m] <= budget {
		return allIndices(its), nil
	}
	// Pruning slack: far above the rounding error of the bounds (a few ulps
	// of pv[m]) and of the state sums, and scale invariant.
	slack := func(best float64) float64 {
		return 1e-9*max(math.Abs(best), vmax) + 1e-12*lp.pv[m]
	}

	best := greedy(its, budget)
	threshold := best.value - slack(best.value)
	arena := make([]node, 0, 1024)
	cur := []state{{cost: 0, value: 0, node: -1}}
	next := make([]state, 0, 64)

	for k := 0; k < m && len(cur) > 0; k++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := states.charge(len(cur)); err != nil {
			return nil, err
		}
		c, v := its[k].cost, its[k].value
		limit := budget - c // a state fits item k iff its cost ≤ limit
		next = next[:0]
		last := math.Inf(-1)
		i, j := 0, 0
		for i < len(cur) || (j < len(cur) && cur[j].cost <= limit) {
			var cand state
			shifted := false
			if j < len(cur) && cur[j].cost <= limit &&
				(i == len(cur) || cur[j].cost+c < cur[i].cost ||
					(cur[j].cost+c == cur[i].cost && cur[j].value+v > cur[i].value)) {
				cand = state{cost: cur[j].cost + c, value: cur[j].value + v, node: cur[j].node}
				shifted = true
				j++
			} else {
				cand = cur[i]
				i++
			}
			// Dominated: a cheaper (or equal-cost, earlier) state is worth
			// at least as much. A bound-pruned dominator prunes it too.
			if cand.value <= last {
				continue
			}
			last = cand.value
			ub, lb, to := lp.eval(k+1, budget-cand.cost, cand.value)
			if ub < threshold {
				continue
			}
			if shifted {
				if len(arena) >= math.MaxInt32 {
					return nil, errTooLarge
				}
				arena = append(arena, node{item: int32(k), prev: cand.node})
				cand.node = int32(len(arena) - 1)
			}
			next = append(next, cand)
			if lb > best.value {
				best = incumbent{value: lb, node: cand.node, from: k + 1, to: to}
				threshold = best.value - slack(best.value)
			}
		}
		cur, next = next, cur
	}
	return best.indices(its, arena), nil
}

// densityOrder returns the solvable items that fit the budget on their own,
// sorted by density descending, then cost ascending, then index ascending,
// and the largest value among them.
func densityOrder(items []pool.Item, solvable []int, budget int64) ([]densityItem, float64) {
	its := make([]densityItem, 0, len(solvable))
	var vmax float64
	for _, i := range solvable {
		it := items[i]
		if it.Cost > budget {
			continue
		}
		vmax = max(vmax, it.Value)
		its = append(its, densityItem{
			density: it.Value / float64(it.Cost),
			value:   it.Value,
			cost:    it.Cost,
			index:   i,
		})
	}
	slices.SortFunc(its, func(a, b densityItem) int {
		if c := cmp.Compare(b.density, a.density); c != 0 {
			return c
		}
		if c := cmp.Compare(a.cost, b.cost); c != 0 {
			return c
		}
		return cmp.Compare(a.index, b.index)
	})
	return its, vmax
}

// greedy takes the items in density order whenever they still fit.
func greedy(its []densityItem, budget int64) incumbent {
	inc := incumbent{node: -1, greedy: []int32{}}
	left := budget
	for k, it := range its {
		if it.cost <= left {
			left -= it.cost
			inc.value += it.value
			inc.greedy = append(inc.greedy, int32(k))
		}
	}
	return inc
}

// indices returns the caller's indices of the incumbent's items.
func (inc incumbent) indices(its []densityItem, arena []node) []int {
	if inc.greedy != nil {
		out := make([]int, len(inc.greedy))
		for n, k := range inc.greedy {
			out[n] = its[k].index
		}
		return out
	}
	out := []int{}
	for n := inc.node; n >= 0; n = arena[n].prev {
		out = append(out, its[arena[n].item].index)
	}
	for k := inc.from; k < inc.to; k++ {
		out = append(out, its[k].index)
	}
	return out
}

// allIndices returns the caller's indices of every item of its.
func allIndices(its []densityItem) []int {
	out := make([]int, len(its))
	for n, it := range its {
		out[n] = it.index
	}
	return out
}
