package report

import (
	"cmp"
	"math"
	"slices"

	"github.com/triage-eval/triage/internal/protocol/metrics"
)

// index looks cells up by key, including macro cells (Dataset AllDatasets).
type index struct {
	cells map[cellKey]*Cell
	// datasets lists, per (α, strategy, regime), the datasets with a cell.
	datasets map[scope][]string
}

// scope is the part of a cell key that a macro-average's datasets depend on.
type scope struct {
	alpha            uint64
	strategy, regime string
}

func (r Report) index() *index {
	ix := &index{cells: map[cellKey]*Cell{}, datasets: map[scope][]string{}}
	for i := range r.Cells {
		c := &r.Cells[i]
		ix.cells[c.key()] = c
		s := scope{math.Float64bits(c.Alpha), c.Strategy, c.Regime}
		if !slices.Contains(ix.datasets[s], c.Dataset) {
			ix.datasets[s] = append(ix.datasets[s], c.Dataset)
		}
	}
	for _, ds := range ix.datasets {
		slices.Sort(ds)
	}
	return ix
}

// get returns the cell with the given key, or the macro cell when dataset is
// AllDatasets.
func (ix *index) get(model, mode, dataset string, alpha float64, variant, strategy, regime string) (Cell, bool) {
	if dataset == AllDatasets {
		return ix.macro(model, mode, alpha, variant, strategy, regime)
	}
	c, ok := ix.cells[cellKey{model, mode, dataset, math.Float64bits(alpha), variant, strategy, regime}]
	if !ok {
		return Cell{}, false
	}
	return *c, true
}

// Macro returns the macro-average over datasets of a solver's cells at one
// (α, variant, strategy, regime), with Dataset AllDatasets, as the paper's
// prompt-sensitivity tables do ("the mean over the data splits").
//
// The datasets averaged are every dataset that has a cell at (α, strategy,
// regime) for any solver or variant, so that all solvers and variants are
// averaged over the same datasets. Eta (and Regret) is the unweighted mean
// of the per-dataset means, defined only when every one of those datasets
// has a cell with a defined mean; its N is the total number of pools behind
// them. Pools, Excluded, RegretUndefined and StoredMismatch are summed over
// the cells that exist; BaseAccuracy is undefined. ok is false when the
// solver has no cell at all at (α, variant, strategy, regime).
func (r Report) Macro(model, mode string, alpha float64, variant, strategy, regime string) (c Cell, ok bool) {
	return r.index().macro(model, mode, alpha, variant, strategy, regime)
}

func (ix *index) macro(model, mode string, alpha float64, variant, strategy, regime string) (Cell, bool) {
	out := Cell{
		Model: model, Mode: mode, Dataset: AllDatasets, Alpha: alpha,
		Variant: variant, Strategy: strategy, Regime: regime,
		Excluded: []metrics.ReasonCount{},
	}
	datasets := ix.datasets[scope{math.Float64bits(alpha), strategy, regime}]
	var parts []*Cell
	for _, d := range datasets {
		if c, ok := ix.cells[cellKey{model, mode, d, math.Float64bits(alpha), variant, strategy, regime}]; ok {
			parts = append(parts, c)
		}
	}
	if len(parts) == 0 {
		return Cell{}, false
	}
	var excluded []metrics.ReasonCount
	for _, c := range parts {
		out.Pools += c.Pools
		out.RegretUndefined += c.RegretUndefined
		out.StoredMismatch += c.StoredMismatch
		excluded = append(excluded, c.Excluded...)
	}
	out.Excluded = mergeReasons(excluded)
	complete := len(parts) == len(datasets)
	out.Eta = macroMean(parts, complete, func(c *Cell) metrics.Mean { return c.Eta })
	out.Regret = macroMean(parts, complete, func(c *Cell) metrics.Mean { return c.Regret })
	return out, true
}

// macroMean is the unweighted mean of the parts' means, defined when the
// parts cover every dataset and each mean is defined.
func macroMean(parts []*Cell, complete bool, get func(*Cell) metrics.Mean) metrics.Mean {
	if !complete {
		return metrics.Mean{}
	}
	var sum float64
	var n int
	for _, c := range parts {
		m := get(c)
		if !m.Defined {
			return metrics.Mean{}
		}
		sum += m.Value
		n += m.N
	}
	return metrics.Mean{Value: sum / float64(len(parts)), N: n, Defined: true}
}

// mergeReasons sums counts per reason, sorted by reason.
func mergeReasons(rcs []metrics.ReasonCount) []metrics.ReasonCount {
	out := []metrics.ReasonCount{}
	for _, rc := range rcs {
		i := slices.IndexFunc(out, func(o metrics.ReasonCount) bool { return o.Reason == rc.Reason })
		if i < 0 {
			out = append(out, rc)
			continue
		}
		out[i].Count += rc.Count
	}
	slices.SortFunc(out, func(a, b metrics.ReasonCount) int { return cmp.Compare(a.Reason, b.Reason) })
	return out
}

// solver is a (model, mode) pair: one row of the solver tables.
type solver struct{ model, mode string }

// distinct returns the sorted distinct values of f over the cells that keep
// accepts.
func distinct[T cmp.Ordered](cells []Cell, keep func(Cell) bool, f func(Cell) T) []T {
	var out []T
	for _, c := range cells {
		if keep(c) {
			out = append(out, f(c))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// solvers returns the sorted distinct solvers of the cells that keep accepts.
func solvers(cells []Cell, keep func(Cell) bool) []solver {
	var out []solver
	for _, c := range cells {
		if keep(c) {
			out = append(out, solver{c.Model, c.Mode})
		}
	}
	slices.SortFunc(out, func(a, b solver) int { return cmp.Or(cmp.Compare(a.model, b.model), cmp.Compare(a.mode, b.mode)) })
	return slices.Compact(out)
}

// strategyVariant is a (strategy, variant) pair: one set of main tables.
type strategyVariant struct{ strategy, variant string }

func (r Report) strategyVariants() []strategyVariant {
	var out []strategyVariant
	for _, c := range r.Cells {
		out = append(out, strategyVariant{c.Strategy, c.Variant})
	}
	slices.SortFunc(out, func(a, b strategyVariant) int {
		return cmp.Or(cmp.Compare(a.strategy, b.strategy), cmp.Compare(a.variant, b.variant))
	})
	return slices.Compact(out)
}

func all(Cell) bool { return true }
