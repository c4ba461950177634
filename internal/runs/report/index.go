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
	ix := r.cellIndex()
	for i := range r.Macros {
		c := &r.Macros[i]
		ix.cells[c.key()] = c
	}
	return ix
}

// cellIndex indexes the plain cells alone, before the macro cells exist.
func (r Report) cellIndex() *index {
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
	c, ok := ix.cells[cellKey{model: model, mode: mode, dataset: dataset, alpha: math.Float64bits(alpha), variant: variant, strategy: strategy, regime: regime}]
	if !ok {
		return Cell{}, false
	}
	return *c, true
}

// Macro returns the macro-average over datasets of a solver's cells at one
// (α, variant, strategy, regime), with Dataset AllDatasets, as the paper's
// prompt-sensitivity tables do ("the mean over the data splits").
//
// The datasets in scope are every dataset that has a cell at (α, strategy,
// regime) for any solver or variant. Eta (and Regret) is the unweighted mean
// of the solver's defined per-dataset means, its N the number of pools
// behind them; the datasets in scope without a defined mean are listed in
// Missing (RegretMissing), so that a mean over fewer datasets is never shown
// as if it covered all of them, and an undefined mean never hides the pools
// that were averaged. Comparisons across solvers or variants (Sensitivity)
// use only complete macro means. Pools, Excluded, RegretUndefined,
// StoredMismatch, ShortPools and Dropped are summed over the cells that
// exist, RandomSEMax is their maximum; BaseAccuracy is undefined. ok is
// false when the solver has no cell at all at (α, variant, strategy,
// regime). Its intervals are stratified bootstrap intervals over the
// datasets' pools, defined when no dataset is missing and each has at
// least two pools.
func (r Report) Macro(model, mode string, alpha float64, variant, strategy, regime string) (c Cell, ok bool) {
	return r.index().get(model, mode, AllDatasets, alpha, variant, strategy, regime)
}

// buildMacros computes the macro cell of every (solver, α, variant,
// strategy, regime) that has cells.
func (r *Report) buildMacros() {
	ix := r.cellIndex()
	seen := map[cellKey]bool{}
	for _, c := range r.Cells {
		k := cellKey{model: c.Model, mode: c.Mode, dataset: AllDatasets, alpha: math.Float64bits(c.Alpha), variant: c.Variant, strategy: c.Strategy, regime: c.Regime}
		if seen[k] {
			continue
		}
		seen[k] = true
		if m, ok := ix.macro(c.Model, c.Mode, c.Alpha, c.Variant, c.Strategy, c.Regime); ok {
			r.Macros = append(r.Macros, m)
		}
	}
	slices.SortFunc(r.Macros, compareCells)
}

func (ix *index) macro(model, mode string, alpha float64, variant, strategy, regime string) (Cell, bool) {
	out := Cell{
		Model: model, Mode: mode, Dataset: AllDatasets, Alpha: alpha,
		Variant: variant, Strategy: strategy, Regime: regime,
		Excluded: []metrics.ReasonCount{},
	}
	datasets := ix.datasets[scope{math.Float64bits(alpha), strategy, regime}]
	parts := make([]*Cell, len(datasets)) // nil where the solver has no cell
	found := false
	var excluded []metrics.ReasonCount
	for i, d := range datasets {
		c, ok := ix.cells[cellKey{model: model, mode: mode, dataset: d, alpha: math.Float64bits(alpha), variant: variant, strategy: strategy, regime: regime}]
		if !ok {
			continue
		}
		parts[i], found = c, true
		out.Pools += c.Pools
		out.RegretUndefined += c.RegretUndefined
		out.StoredMismatch += c.StoredMismatch
		out.ShortPools += c.ShortPools
		out.Dropped += c.Dropped
		out.RandomSEMax = max(out.RandomSEMax, c.RandomSEMax)
		excluded = append(excluded, c.Excluded...)
	}
	if !found {
		return Cell{}, false
	}
	out.Excluded = mergeReasons(excluded)
	out.Eta, out.Missing = macroMean(datasets, parts, func(c *Cell) metrics.Mean { return c.Eta })
	out.Regret, out.RegretMissing = macroMean(datasets, parts, func(c *Cell) metrics.Mean { return c.Regret })
	for _, c := range parts {
		if c != nil {
			out.perPool.etaStrata = append(out.perPool.etaStrata, c.perPool.eta)
			out.perPool.regretStrata = append(out.perPool.regretStrata, c.perPool.regret)
		}
	}
	return out, true
}

// macroMean is the unweighted mean of the defined per-dataset means, N the
// pools behind them, and the datasets without a defined mean.
func macroMean(datasets []string, parts []*Cell, get func(*Cell) metrics.Mean) (metrics.Mean, []string) {
	var defined []metrics.Mean
	var missing []string
	for i, c := range parts {
		if c == nil || !get(c).Defined {
			missing = append(missing, datasets[i])
			continue
		}
		defined = append(defined, get(c))
	}
	return meanOfMeans(defined), missing
}

// comparableEta is c's mean η for comparisons across solvers or variants: a
// macro mean that leaves out a dataset counts as undefined there, since
// means over different datasets do not compare.
func comparableEta(c Cell) metrics.Mean {
	if len(c.Missing) > 0 {
		return metrics.Mean{}
	}
	return c.Eta
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

// Distinct returns the sorted distinct values of f over the cells that keep
// accepts.
func Distinct[T cmp.Ordered](cells []Cell, keep func(Cell) bool, f func(Cell) T) []T {
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
		return cmp.Or(compareStrategies(a.strategy, b.strategy), cmp.Compare(a.variant, b.variant))
	})
	return slices.Compact(out)
}

func all(Cell) bool { return true }
