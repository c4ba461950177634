package figures

import (
	"cmp"
	"math"
	"slices"

	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/runs/report"
)

// solver is a (model, mode) pair: one bar group, one heat-map row.
type solver struct{ model, mode string }

// label is the solver's name in figures.
func (s solver) label() string { return solverLabel(s.model, s.mode) }

func compareSolvers(a, b solver) int {
	return cmp.Or(cmp.Compare(a.model, b.model), cmp.Compare(a.mode, b.mode))
}

// strategyVariant is one planning strategy under one prompt variant: the
// unit figures 1–4 are drawn for.
type strategyVariant struct {
	strategy vocab.Strategy
	variant  vocab.Variant
}

// stem is the strategy and variant as file-name parts; a strategy without
// a prompt (vocab.NoVariant) is named by the strategy alone.
func (sv strategyVariant) stem() []string {
	if sv.variant == vocab.NoVariant || sv.variant == "" {
		return []string{string(sv.strategy)}
	}
	return []string{string(sv.strategy), string(sv.variant)}
}

// phrase names the strategy and variant in titles and captions.
func (sv strategyVariant) phrase() string { return report.ScopePhrase(sv.strategy, sv.variant) }

func compareStrategyVariants(a, b strategyVariant) int {
	return cmp.Or(vocab.CompareStrategies(a.strategy, b.strategy), vocab.CompareVariants(a.variant, b.variant))
}

// drawnStrategies lists the strategy-variants figures are drawn for: the
// llm strategy's variants when cells has any, otherwise every reference
// strategy's; sorted.
func drawnStrategies(cells []report.Cell) []strategyVariant {
	var llm, all []strategyVariant
	for _, c := range cells {
		sv := strategyVariant{c.Strategy, c.Variant}
		all = append(all, sv)
		if c.Strategy == vocab.LLM {
			llm = append(llm, sv)
		}
	}
	out := all
	if len(llm) > 0 {
		out = llm
	}
	slices.SortFunc(out, compareStrategyVariants)
	return slices.Compact(out)
}

// closestAlpha returns the α of cells nearest to alpha (the smaller on a
// tie), and false when cells is empty.
func closestAlpha(cells []report.Cell, alpha float64) (float64, bool) {
	best, found := 0.0, false
	for _, c := range cells {
		d, bd := math.Abs(c.Alpha-alpha), math.Abs(best-alpha)
		if !found || d < bd || (d == bd && c.Alpha < best) {
			best, found = c.Alpha, true
		}
	}
	return best, found
}

// cellKey finds a plain or injection cell.
type cellKey struct {
	solver
	dataset, source string
	ratio, alpha    float64
	strategy        vocab.Strategy
	variant         vocab.Variant
	regime          vocab.Regime
}

func keyOf(c report.Cell) cellKey {
	return cellKey{solver{c.Model, c.Mode}, c.Dataset, c.Source, c.Ratio, c.Alpha, c.Strategy, c.Variant, c.Regime}
}

// cellIndex looks cells up by key.
type cellIndex map[cellKey]report.Cell

func indexCells(cells []report.Cell) cellIndex {
	ix := make(cellIndex, len(cells))
	for _, c := range cells {
		ix[keyOf(c)] = c
	}
	return ix
}

// solversOf returns the sorted distinct solvers of the cells keep accepts.
func solversOf(cells []report.Cell, keep func(report.Cell) bool) []solver {
	var out []solver
	for _, c := range cells {
		if keep(c) {
			out = append(out, solver{c.Model, c.Mode})
		}
	}
	slices.SortFunc(out, compareSolvers)
	return slices.Compact(out)
}
