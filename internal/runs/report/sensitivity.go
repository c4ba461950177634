package report

import (
	"cmp"
	"errors"
	"math"
	"slices"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// Sensitivity is the prompt-sensitivity analysis of SPEC §5: how much a
// cell's mean η moves across prompt variants, and whether the variants rank
// the solvers alike.
type Sensitivity struct {
	// Ranges are sorted by (strategy, regime, dataset, model, mode, α),
	// regime U before E; AllDatasets ("*") sorts before dataset names that
	// start with a letter or digit.
	Ranges []VariantRange
	// Ranks are sorted like Ranges: (strategy, regime, dataset, α, A, B).
	Ranks []RankAgreement
}

// VariantRange is the spread of one solver's mean η across prompt variants
// in one (dataset, α, strategy, regime). Dataset AllDatasets ranges over the
// variants' macro-averages (Report.Macro), as the paper's tables do.
type VariantRange struct {
	Model, Mode, Dataset string
	Alpha                float64
	Strategy             vocab.Strategy
	Regime               vocab.Regime
	// Variants holds every variant with a cell here, sorted, and its mean η
	// (possibly undefined).
	Variants []VariantEta
	// Compared is how many variants have a defined η.
	Compared int
	// Range is max − min of the defined means (metrics.Range); Defined is
	// false when fewer than two variants have a defined mean.
	Range   float64
	Defined bool
}

// VariantEta is a cell's mean η under one prompt variant, and how many of
// the pools it averages are degenerate (SPEC §5).
type VariantEta struct {
	Variant    vocab.Variant
	Eta        metrics.Mean
	Degenerate metrics.DegenerateCounts
}

// RankAgreement is Kendall's τ_b between the rankings of solvers (model,
// mode) that two prompt variants A < B induce through their mean η in one
// (dataset, α, strategy, regime).
type RankAgreement struct {
	Dataset  string
	Alpha    float64
	Strategy vocab.Strategy
	Regime   vocab.Regime
	A, B     vocab.Variant
	// Solvers is how many solvers were ranked: those with a defined η under
	// both variants (the others are left out of both rankings).
	Solvers int
	// Tau is τ_b (metrics.KendallTauB) when Defined.
	Tau     float64
	Defined bool
	// Undefined says why Tau is undefined: "fewer than 2 solvers" or "a
	// ranking is all ties".
	Undefined string
}

// rangeKey groups cells across variants.
type rangeKey struct {
	model, mode, dataset string
	alpha                uint64
	strategy             vocab.Strategy
	regime               vocab.Regime
}

// rankKey groups cells across solvers and variants.
type rankKey struct {
	dataset  string
	alpha    uint64
	strategy vocab.Strategy
	regime   vocab.Regime
}

// Sensitivity computes the prompt-sensitivity analysis. Only groups with at
// least two variants present appear: a VariantRange per (model, mode,
// dataset, α, strategy, regime) with ≥ 2 variants, and a RankAgreement per
// pair of variants present in a (dataset, α, strategy, regime). Both are
// also computed with Dataset AllDatasets over the macro-averages. Strategies
// without a prompt (variant "-" only) therefore produce nothing.
func (r Report) Sensitivity() Sensitivity {
	ix := r.Index()
	variants := map[rangeKey][]vocab.Variant{}
	rankVariants := map[rankKey][]vocab.Variant{}
	rankSolvers := map[rankKey][]Solver{}
	add := func(c Cell, dataset string) {
		a := math.Float64bits(c.Alpha)
		rk := rangeKey{c.Model, c.Mode, dataset, a, c.Strategy, c.Regime}
		variants[rk] = appendNew(variants[rk], c.Variant)
		kk := rankKey{dataset, a, c.Strategy, c.Regime}
		rankVariants[kk] = appendNew(rankVariants[kk], c.Variant)
		rankSolvers[kk] = appendNew(rankSolvers[kk], Solver{c.Model, c.Mode})
	}
	for _, c := range r.Cells {
		add(c, c.Dataset)
		add(c, AllDatasets)
	}

	s := Sensitivity{Ranges: []VariantRange{}, Ranks: []RankAgreement{}}
	for k, vs := range variants {
		if len(vs) < 2 {
			continue
		}
		slices.SortFunc(vs, vocab.CompareVariants)
		alpha := math.Float64frombits(k.alpha)
		vr := VariantRange{Model: k.model, Mode: k.mode, Dataset: k.dataset, Alpha: alpha, Strategy: k.strategy, Regime: k.regime}
		var values []float64
		for _, v := range vs {
			c, _ := ix.get(k.model, k.mode, k.dataset, alpha, v, k.strategy, k.regime)
			eta := comparableEta(c)
			ve := VariantEta{Variant: v, Eta: eta}
			if eta.Defined {
				ve.Degenerate = c.Degenerate
			}
			vr.Variants = append(vr.Variants, ve)
			if eta.Defined {
				values = append(values, eta.Value)
			}
		}
		vr.Compared = len(values)
		if len(values) >= 2 {
			vr.Range, vr.Defined = metrics.Range(values), true
		}
		s.Ranges = append(s.Ranges, vr)
	}
	for k, vs := range rankVariants {
		slices.SortFunc(vs, vocab.CompareVariants)
		alpha := math.Float64frombits(k.alpha)
		for i, a := range vs {
			for _, b := range vs[i+1:] {
				s.Ranks = append(s.Ranks, rankAgreement(ix, k, alpha, rankSolvers[k], a, b))
			}
		}
	}
	slices.SortFunc(s.Ranges, func(a, b VariantRange) int {
		return cmp.Or(vocab.CompareStrategies(a.Strategy, b.Strategy), vocab.CompareRegimes(a.Regime, b.Regime),
			cmp.Compare(a.Dataset, b.Dataset), cmp.Compare(a.Model, b.Model), cmp.Compare(a.Mode, b.Mode),
			cmp.Compare(a.Alpha, b.Alpha))
	})
	slices.SortFunc(s.Ranks, func(a, b RankAgreement) int {
		return cmp.Or(vocab.CompareStrategies(a.Strategy, b.Strategy), vocab.CompareRegimes(a.Regime, b.Regime),
			cmp.Compare(a.Dataset, b.Dataset), cmp.Compare(a.Alpha, b.Alpha),
			vocab.CompareVariants(a.A, b.A), vocab.CompareVariants(a.B, b.B))
	})
	return s
}

// rankAgreement computes τ_b between variants a and b over the solvers with
// a defined η under both.
func rankAgreement(ix *Index, k rankKey, alpha float64, solvers []Solver, a, b vocab.Variant) RankAgreement {
	ra := RankAgreement{Dataset: k.dataset, Alpha: alpha, Strategy: k.strategy, Regime: k.regime, A: a, B: b}
	slices.SortFunc(solvers, CompareSolvers)
	var xs, ys []float64
	for _, sv := range solvers {
		ca, _ := ix.get(sv.Model, sv.Mode, k.dataset, alpha, a, k.strategy, k.regime)
		cb, _ := ix.get(sv.Model, sv.Mode, k.dataset, alpha, b, k.strategy, k.regime)
		ea, eb := comparableEta(ca), comparableEta(cb)
		if ea.Defined && eb.Defined {
			xs = append(xs, ea.Value)
			ys = append(ys, eb.Value)
		}
	}
	ra.Solvers = len(xs)
	tau, err := metrics.KendallTauB(xs, ys)
	switch {
	case err == nil:
		ra.Tau, ra.Defined = tau, true
	case errors.Is(err, metrics.ErrTooFew):
		ra.Undefined = "fewer than 2 solvers"
	case errors.Is(err, metrics.ErrAllTied):
		ra.Undefined = "a ranking is all ties"
	default:
		ra.Undefined = err.Error()
	}
	return ra
}

// appendNew appends v to s unless s holds it.
func appendNew[T comparable](s []T, v T) []T {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}
