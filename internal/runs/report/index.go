package report

import (
	"cmp"
	"math"
	"slices"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// Index finds a report's cells by key: plain, injection and macro cells
// (Dataset AllDatasets).
type Index struct {
	cells map[cellKey]*Cell
	// datasets lists, per (α, strategy, regime), the datasets with a plain
	// cell.
	datasets map[scope][]string
}

// scope is the part of a cell key that a macro-average's datasets depend on.
type scope struct {
	alpha    uint64
	strategy vocab.Strategy
	regime   vocab.Regime
}

// Key names a cell: its solver, dataset (AllDatasets for a macro cell),
// Source and Ratio for an injection cell, α, strategy, variant and regime.
type Key struct {
	Solver
	Dataset, Source string
	Ratio, Alpha    float64
	StrategyVariant
	Regime vocab.Regime
}

// Key returns the key of c.
func (c Cell) Key() Key {
	return Key{Solver{c.Model, c.Mode}, c.Dataset, c.Source, c.Ratio, c.Alpha, StrategyVariant{c.Strategy, c.Variant}, c.Regime}
}

// Index indexes every cell of r: Cells, Injection and Macros.
func (r Report) Index() *Index {
	ix := r.cellIndex()
	for _, cells := range [][]Cell{r.Injection, r.Macros} {
		for i := range cells {
			c := &cells[i]
			ix.cells[c.key()] = c
		}
	}
	return ix
}

// Cell returns the cell named by k.
func (ix *Index) Cell(k Key) (Cell, bool) {
	c, ok := ix.cells[cellKey{k.Model, k.Mode, k.Dataset, math.Float64bits(k.Alpha), k.Variant, k.Strategy, k.Regime, k.Source, math.Float64bits(k.Ratio)}]
	if !ok {
		return Cell{}, false
	}
	return *c, true
}

// cellIndex indexes the plain cells alone, before the macro cells exist.
func (r Report) cellIndex() *Index {
	ix := &Index{cells: map[cellKey]*Cell{}, datasets: map[scope][]string{}}
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

// get returns the plain cell with the given key, or the macro cell when
// dataset is AllDatasets.
func (ix *Index) get(model, mode, dataset string, alpha float64, variant vocab.Variant, strategy vocab.Strategy, regime vocab.Regime) (Cell, bool) {
	return ix.Cell(Key{Solver: Solver{model, mode}, Dataset: dataset, Alpha: alpha, StrategyVariant: StrategyVariant{strategy, variant}, Regime: regime})
}

// Macro returns the macro-average over datasets of a solver's cells at one
// (α, variant, strategy, regime), with Dataset AllDatasets, as the paper's
// prompt-sensitivity tables do ("the mean over the data splits").
//
// The datasets in scope are every dataset that has a cell at (α, strategy,
// regime) for any solver or variant. A dataset whose scored pools are all
// D1 for this solver (V_oracle = 0: its η is 1 by convention in every pool)
// is named in OracleZero and left out of every mean (SPEC §5). Eta (and
// Regret, Informative) is the unweighted mean of the solver's defined
// per-dataset means over the other datasets, its N the number of pools
// behind them; the datasets in scope without a defined mean are listed in
// Missing (RegretMissing, InformativeMissing), so that a mean over fewer
// datasets is never shown as if it covered all of them, and an undefined
// mean never hides the pools that were averaged. Comparisons across solvers
// or variants (Sensitivity) use only macro means with nothing Missing; an
// OracleZero dataset does not count as missing there, since V_oracle
// depends on the solver's ground truth and the budget, not on the plan, so
// it is left out under every variant alike.
// The regret decomposition and the plan diagnostics (Selection, ...,
// UnderAllocation) follow Regret's rule, each with its own Missing.
// Degenerate sums the counts of the datasets in Eta; Pools, Excluded,
// RegretUndefined, StoredMismatch, Undecomposed, DecompositionMismatch,
// ShortPools and Dropped are summed over
// the cells that exist, RandomSEMax is their maximum; BaseAccuracy is
// undefined. ok is false when the solver has no cell at all at (α, variant,
// strategy, regime). Its intervals are stratified bootstrap intervals over
// the pools of the datasets each mean averages (metrics.StratifiedMeanCI),
// defined from two pools in total; a dataset with one pool enters every
// resample as is (SinglePool names them for Eta).
func (r Report) Macro(model, mode string, alpha float64, variant vocab.Variant, strategy vocab.Strategy, regime vocab.Regime) (c Cell, ok bool) {
	return r.Index().get(model, mode, AllDatasets, alpha, variant, strategy, regime)
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

// OracleZeroOnly reports whether every scored pool of c is D1 (V_oracle =
// 0), so that its mean η is 1 by convention alone: such a dataset is left
// out of the solver's mean over datasets (SPEC §5).
func OracleZeroOnly(c Cell) bool {
	return c.Eta.N > 0 && c.Degenerate.NoValue == c.Eta.N
}

func (ix *Index) macro(model, mode string, alpha float64, variant vocab.Variant, strategy vocab.Strategy, regime vocab.Regime) (Cell, bool) {
	out := Cell{
		Model: model, Mode: mode, Dataset: AllDatasets, Alpha: alpha,
		Variant: variant, Strategy: strategy, Regime: regime,
		Excluded: []metrics.ReasonCount{},
	}
	datasets := ix.datasets[scope{math.Float64bits(alpha), strategy, regime}]
	found := false
	var excluded []metrics.ReasonCount
	var eta, regret, informative []metrics.Mean
	var plan [numPlanMetrics][]metrics.Mean
	means := out.planMeans()
	for _, d := range datasets {
		c, ok := ix.cells[cellKey{model: model, mode: mode, dataset: d, alpha: math.Float64bits(alpha), variant: variant, strategy: strategy, regime: regime}]
		if !ok {
			out.Missing = append(out.Missing, d)
			out.RegretMissing = append(out.RegretMissing, d)
			for _, m := range means {
				m.Missing = append(m.Missing, d)
			}
			continue
		}
		found = true
		out.Pools += c.Pools
		out.RegretUndefined += c.RegretUndefined
		out.StoredMismatch += c.StoredMismatch
		out.Undecomposed += c.Undecomposed
		out.DecompositionMismatch += c.DecompositionMismatch
		out.ShortPools += c.ShortPools
		out.Dropped += c.Dropped
		out.RandomSEMax = maxOf(out.RandomSEMax, c.RandomSEMax)
		excluded = append(excluded, c.Excluded...)
		switch {
		case OracleZeroOnly(*c):
			out.OracleZero = append(out.OracleZero, d)
			continue
		case !c.Eta.Defined:
			out.Missing = append(out.Missing, d)
		default:
			eta = append(eta, c.Eta)
			out.perPool.etaStrata = append(out.perPool.etaStrata, c.perPool.eta)
			out.perPool.etaDatasets = append(out.perPool.etaDatasets, d)
			out.Degenerate = out.Degenerate.Add(c.Degenerate)
			if c.Eta.N == 1 {
				out.SinglePool = append(out.SinglePool, SinglePoolDataset{Dataset: d, Excluded: c.Excluded})
			}
			if c.Informative.Defined {
				informative = append(informative, c.Informative)
				out.perPool.informativeStrata = append(out.perPool.informativeStrata, c.perPool.informative)
			} else {
				out.InformativeMissing = append(out.InformativeMissing, d)
			}
		}
		if c.Regret.Defined {
			regret = append(regret, c.Regret)
			out.perPool.regretStrata = append(out.perPool.regretStrata, c.perPool.regret)
		} else {
			out.RegretMissing = append(out.RegretMissing, d)
		}
		for m, cm := range c.planMeans() {
			if cm.Mean.Defined {
				plan[m] = append(plan[m], cm.Mean)
				out.perPool.planStrata[m] = append(out.perPool.planStrata[m], c.perPool.plan[m])
			} else {
				means[m].Missing = append(means[m].Missing, d)
			}
		}
	}
	if !found {
		return Cell{}, false
	}
	out.Excluded = mergeReasons(excluded)
	out.Eta, out.Regret, out.Informative = meanOfMeans(eta), meanOfMeans(regret), meanOfMeans(informative)
	for m, dst := range means {
		dst.Mean = meanOfMeans(plan[m])
	}
	return out, true
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

func all(Cell) bool { return true }

// PlannedCells counts the grid cells cells aggregate, as triage run counts
// them: one per (solver, dataset, pool, α, strategy, variant), and for
// injection cells per source and ratio too. Each cell is a mean over its
// pools for one regime, so the plans are its pools summed over the cells
// of one regime.
func PlannedCells(cells []Cell) int {
	if len(cells) == 0 {
		return 0
	}
	regime, n := cells[0].Regime, 0
	for _, c := range cells {
		if c.Regime == regime {
			n += c.Pools
		}
	}
	return n
}
