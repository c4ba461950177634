package report

import (
	"cmp"
	"math"
	"slices"

	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// Solver is a (model, mode) pair: one row of the solver tables, one group
// of bars in a figure.
type Solver struct{ Model, Mode string }

// CompareSolvers orders solvers by model, then mode.
func CompareSolvers(a, b Solver) int {
	return cmp.Or(cmp.Compare(a.Model, b.Model), cmp.Compare(a.Mode, b.Mode))
}

// Solvers returns the sorted distinct solvers of the cells keep accepts.
func Solvers(cells []Cell, keep func(Cell) bool) []Solver {
	var out []Solver
	for _, c := range cells {
		if keep(c) {
			out = append(out, Solver{c.Model, c.Mode})
		}
	}
	slices.SortFunc(out, CompareSolvers)
	return slices.Compact(out)
}

// StrategyVariant is a planning strategy under one prompt variant
// (vocab.NoVariant for a reference strategy): one set of main tables, one
// set of figures.
type StrategyVariant struct {
	Strategy vocab.Strategy
	Variant  vocab.Variant
}

// ScopePhrase names a strategy and its prompt variant in titles and
// captions: "strategy llm, variant default", or "strategy random" for a
// strategy without a prompt (vocab.NoVariant or empty).
func ScopePhrase(strategy vocab.Strategy, variant vocab.Variant) string {
	if variant == vocab.NoVariant || variant == "" {
		return "strategy " + string(strategy)
	}
	return "strategy " + string(strategy) + ", variant " + string(variant)
}

// CompareStrategyVariants orders pairs by strategy, then variant (vocab's
// orders: llm first, the default variant first).
func CompareStrategyVariants(a, b StrategyVariant) int {
	return cmp.Or(vocab.CompareStrategies(a.Strategy, b.Strategy), vocab.CompareVariants(a.Variant, b.Variant))
}

// resolve decides, once, what every renderer of the report shows: the
// headline α nearest to alpha, the headline injection ratio, the headline
// variant, and the strategy and
// variant pairs of the tables, the summary, the self-knowledge table and
// the figures. Cells and
// Injection must be sorted.
func (r *Report) resolve(alpha float64) {
	if alpha == 0 {
		alpha = HeadlineAlpha
	}
	r.Alpha = closestAlpha(r.Cells, alpha)
	r.HeadlineRatio = headlineRatio(r.Injection)
	r.Scopes = scopesOf(r.Cells)
	for _, sv := range r.Scopes {
		if sv.Strategy == vocab.LLM {
			r.HeadlineVariant = sv.Variant // the first llm variant in vocab.CompareVariants order
			break
		}
	}
	// The partial-information references are what a planner is set
	// beside (the self-knowledge table), not a headline of their own.
	r.HeadlineScopes = slices.DeleteFunc(slices.Clone(r.Scopes), func(sv StrategyVariant) bool { return sv.Strategy.PartialReference() })
	if len(r.HeadlineScopes) == 0 {
		r.HeadlineScopes = r.Scopes
	}
	if r.HeadlineVariant != "" {
		r.HeadlineScopes = []StrategyVariant{{vocab.LLM, r.HeadlineVariant}}
	}
	for _, sv := range r.HeadlineScopes {
		if !sv.Strategy.PartialReference() {
			r.KnowledgeScope = sv
			break
		}
	}
	r.FigureScopes = drawnScopes(r.Scopes, r.Cells)
	r.InjectionFigureScopes = drawnScopes(scopesOf(r.Injection), r.Injection)
}

// closestAlpha returns the α of cells nearest to alpha, the smaller of two
// equally near; alpha itself when there are no cells.
func closestAlpha(cells []Cell, alpha float64) float64 {
	best, found := alpha, false
	for _, c := range cells {
		d, bd := math.Abs(c.Alpha-alpha), math.Abs(best-alpha)
		if !found || d < bd || (d == bd && c.Alpha < best) {
			best, found = c.Alpha, true
		}
	}
	return best
}

// scopesOf lists the distinct (strategy, variant) pairs of cells, sorted.
func scopesOf(cells []Cell) []StrategyVariant {
	var out []StrategyVariant
	for _, c := range cells {
		out = append(out, StrategyVariant{c.Strategy, c.Variant})
	}
	slices.SortFunc(out, CompareStrategyVariants)
	return slices.Compact(out)
}

// drawnScopes keeps the llm strategy's pairs of sorted that measured
// something — a cell of cells with a defined mean η — when it has any,
// otherwise every pair (the figures' rule): a run whose every llm plan was
// unparseable still draws its reference strategies, where it drew nothing.
func drawnScopes(sorted []StrategyVariant, cells []Cell) []StrategyVariant {
	measured := map[StrategyVariant]bool{}
	for _, c := range cells {
		if c.Eta.N > 0 {
			measured[StrategyVariant{c.Strategy, c.Variant}] = true
		}
	}
	llm := slices.DeleteFunc(slices.Clone(sorted), func(sv StrategyVariant) bool { return sv.Strategy != vocab.LLM || !measured[sv] })
	if len(llm) > 0 {
		return llm
	}
	return sorted
}
