package knapsack

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/triage-eval/triage/internal/protocol/pool"
)

// solveUniform solves the instance when every solvable item has the same
// value: the optimum is the largest m such that the m cheapest solvable items
// fit (SPEC §4). Among equal costs the lower index counts as cheaper. It sorts
// solvable in place and returns its fitting prefix, in plan order.
func solveUniform(items []pool.Item, solvable []int, budget int64) []int {
	sortPlan(items, solvable)
	left := budget
	for m, i := range solvable {
		c := items[i].Cost
		if c > left {
			// Every later item costs at least as much: none fits.
			return solvable[:m]
		}
		left -= c
	}
	return solvable
}

// sortPlan sorts idx into plan order: cost ascending, ties by index
// ascending. When cost and index fit together in 64 bits (costs below
// 2^(64−⌈log2 len(items)⌉)) it radix-sorts packed uint64 keys (cost in the
// high bits, index in the low bits); otherwise it falls back to a
// comparison sort.
func sortPlan(items []pool.Item, idx []int) {
	if len(idx) < 2 {
		return
	}
	shift := uint(bits.Len(uint(len(items) - 1)))
	var maxCost int64
	for _, i := range idx {
		maxCost = max(maxCost, items[i].Cost)
	}
	if uint64(maxCost) < 1<<(64-shift) {
		var buf [64]uint64 // the keys of a small set, on the stack
		var keys []uint64
		if len(idx) > len(buf) {
			keys = make([]uint64, len(idx))
		} else {
			keys = buf[:len(idx)]
		}
		for k, i := range idx {
			keys[k] = uint64(items[i].Cost)<<shift | uint64(i)
		}
		sortKeys(keys)
		mask := uint64(1)<<shift - 1
		for k, key := range keys {
			idx[k] = int(key & mask)
		}
		return
	}
	slices.SortFunc(idx, func(a, b int) int {
		if c := cmp.Compare(items[a].Cost, items[b].Cost); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
}
