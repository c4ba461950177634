package randomref

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/triage-eval/triage/internal/protocol/pool"
)

// Limits of the exact method. Budgets that every order fits (B ≥ Σc) or that
// no item fits (B < min c) are exempt: their value needs no table.
const (
	// MaxExactItems is the most items Exact accepts. Every subset count it
	// handles is then below 2^63, which keeps its wrapping uint64
	// arithmetic exact.
	MaxExactItems = 63
	// MaxExactCells is the largest counting table Exact builds, in cells
	// of 8 bytes (1<<24 cells = 128 MiB). For a budget B the table has
	// kmax·(B − min c + 1) cells, where kmax is the most items that fit in B
	// together (the count of the cheapest items whose costs sum to at most
	// B).
	MaxExactCells = 1 << 24
)

// ErrExactLimit is wrapped by the errors of CheckExact and Exact when the
// items or the budget are beyond the exact method's limits; errors.Is
// recognizes it, and MonteCarlo is the fallback.
var ErrExactLimit = errors.New("randomref: beyond the exact method's limits")

// CheckExact reports whether Exact can handle these items and this budget
// within its limits. It returns nil when it can, an error wrapping
// ErrExactLimit that names the limit, the value and the excess when it
// cannot, and the same validation errors as Exact for invalid input.
func CheckExact(items []pool.Item, budget int64) error {
	info, err := inspect(items)
	if err != nil {
		return err
	}
	if err := checkBudget(budget); err != nil {
		return err
	}
	_, _, err = exactTable(items, info, budget)
	return err
}

// Exact computes V_random for each budget (result i is for budgets[i])
// without sampling; see the package documentation for the method. It
// returns an error wrapping ErrExactLimit when a budget is beyond the limits
// (see CheckExact), a validation error for invalid input, or ctx.Err() when
// ctx ends.
func Exact(ctx context.Context, items []pool.Item, budgets []int64) ([]Estimate, error) {
	info, err := inspect(items)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([]Estimate, len(budgets))
	var maxB int64 = -1 // the largest budget that needs the table
	for i, b := range budgets {
		if err := checkBudget(b); err != nil {
			return nil, err
		}
		out[i].Budget = b
		if v, ok := info.trivial(b); ok {
			out[i].Mean = v
			continue
		}
		if _, _, err := exactTable(items, info, b); err != nil {
			return nil, err
		}
		maxB = max(maxB, b)
	}
	if maxB < 0 {
		return out, nil
	}
	t, err := countSubsets(ctx, items, info, maxB)
	if err != nil {
		return nil, err
	}
	for i, b := range budgets {
		if _, ok := info.trivial(b); ok {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i].Mean = t.value(items, b)
	}
	return out, nil
}

// exactTable returns the shape of the counting table budget b needs — rows
// k = 0 … kmax−1 and columns s = 0 … b − min c — or an error wrapping
// ErrExactLimit when it is beyond the limits. Trivial budgets need no table
// (0, 0, nil).
func exactTable(items []pool.Item, info poolInfo, b int64) (rows int, cols int64, err error) {
	if _, ok := info.trivial(b); ok {
		return 0, 0, nil
	}
	n := len(items)
	if n > MaxExactItems {
		return 0, 0, fmt.Errorf("%w: %d items exceed MaxExactItems = %d by %d; use MonteCarlo",
			ErrExactLimit, n, MaxExactItems, n-MaxExactItems)
	}
	rows = fitCount(items, b)
	cols = b - info.minCost + 1
	hi, cells := bits.Mul64(uint64(rows), uint64(cols))
	if hi != 0 || cells > MaxExactCells {
		excess := fmt.Sprint(cells - MaxExactCells)
		if hi != 0 {
			excess = "more than 2^64"
		}
		return 0, 0, fmt.Errorf("%w: budget %d needs a counting table of %d×%d cells, exceeding MaxExactCells = %d by %s; use MonteCarlo",
			ErrExactLimit, b, rows, cols, MaxExactCells, excess)
	}
	return rows, cols, nil
}

// fitCount returns kmax, the most items that fit in b together: the number
// of cheapest items whose costs sum to at most b.
func fitCount(items []pool.Item, b int64) int {
	costs := make([]int64, len(items))
	for i, it := range items {
		costs[i] = it.Cost
	}
	slices.Sort(costs)
	k := 0
	for _, c := range costs {
		if c > b {
			break
		}
		b -= c
		k++
	}
	return k
}

// subsetTable holds C[k][s], the number of k-subsets of all items whose cost
// is at most s, for k < len(rows) and s ≤ the table's last column.
type subsetTable struct {
	rows [][]uint64
}

// countSubsets builds the table for budget b: the forward counting DP over
// the items (cnt[k][s] = number of k-subsets of cost exactly s), followed by
// prefix sums over s. Row k is filled only over the costs that k of the
// items processed so far can reach; items are processed most expensive
// first, which keeps those ranges narrow for as long as possible.
func countSubsets(ctx context.Context, items []pool.Item, info poolInfo, b int64) (*subsetTable, error) {
	nrows, cols, err := exactTable(items, info, b)
	if err != nil {
		return nil, err
	}
	last := cols - 1
	cells := make([]uint64, int64(nrows)*cols)
	rows := make([][]uint64, nrows)
	for k := range rows {
		rows[k] = cells[int64(k)*cols : int64(k+1)*cols : int64(k+1)*cols]
	}
	// lo[k], hi[k]: the cost range where row k may be non-zero (empty when
	// lo > hi).
	lo := make([]int64, nrows)
	hi := make([]int64, nrows)
	for k := 1; k < nrows; k++ {
		lo[k], hi[k] = last+1, -1
	}
	rows[0][0] = 1

	costs := make([]int64, len(items))
	for i, it := range items {
		costs[i] = it.Cost
	}
	slices.Sort(costs)
	slices.Reverse(costs)
	for done, c := range costs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for k := min(done+1, nrows-1); k >= 1; k-- {
			from, to := lo[k-1], min(hi[k-1], last-c)
			if from > to {
				continue
			}
			dst := rows[k][from+c : to+c+1]
			src := rows[k-1][from : to+1]
			src = src[:len(dst)]
			for s, v := range src {
				dst[s] += v
			}
			lo[k] = min(lo[k], from+c)
			hi[k] = max(hi[k], to+c)
		}
	}
	for _, row := range rows {
		var acc uint64
		for s, v := range row {
			acc += v
			row[s] = acc
		}
	}
	return &subsetTable{rows: rows}, nil
}

// value returns V_random for a budget b that is not trivial and not beyond
// the table: Σ_i g_i·P(i executes), with
//
//	P(i executes) = (1/n) Σ_k N_{−i}(k, b − c_i) / C(n−1, k)
//
// where N_{−i}(k, x) = Σ_j (−1)^j C[k−j][x − j·c_i] counts the k-subsets of
// the other items of cost at most x. The alternating sum is computed in
// wrapping uint64 arithmetic; it is exact because the true count is below
// 2^63. The sum over items runs in index order.
func (t *subsetTable) value(items []pool.Item, b int64) float64 {
	n := len(items)
	kmax := fitCount(items, b)
	binom := binomialRow(n - 1)
	var total float64
	for _, it := range items {
		g := it.Gain()
		if g == 0 || it.Cost > b {
			continue
		}
		var p float64
		// Item i executes with k items before it only if k+1 items fit,
		// so k < kmax.
		for k := range kmax {
			var count uint64
			for j := 0; j <= k; j++ {
				x := b - int64(j+1)*it.Cost
				if x < 0 {
					break
				}
				if j%2 == 0 {
					count += t.rows[k-j][x]
				} else {
					count -= t.rows[k-j][x]
				}
			}
			if count != 0 {
				p += float64(count) / float64(binom[k])
			}
		}
		// The conversion keeps the compiler from fusing the multiply and
		// add (FMA), so that the result is the same on every platform.
		total += float64(g * (p / float64(n)))
	}
	return total
}

// binomialRow returns C(m, k) for k = 0 … m, exactly (m ≤ 62 keeps every
// entry below 2^63).
func binomialRow(m int) []uint64 {
	row := make([]uint64, m+1)
	row[0] = 1
	for r := 1; r <= m; r++ {
		for k := r; k >= 1; k-- {
			row[k] += row[k-1]
		}
	}
	return row
}
