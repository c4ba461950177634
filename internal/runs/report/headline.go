package report

import (
	"math"
	"slices"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// HeadlineAlpha is the budget fraction the summary and the bar figures
// show by default (SPEC §8).
const HeadlineAlpha = 0.5

// HeadlineRow is one line of the report's summary: how one solver planned
// under one strategy at the headline α, over every dataset.
type HeadlineRow struct {
	Model, Mode string
	Strategy    vocab.Strategy
	Variant     vocab.Variant
	// Alpha is the budget fraction shown.
	Alpha float64
	// EtaU and EtaE are the means over datasets (as Report.Macro) with
	// their stratified bootstrap intervals; Missing names the datasets
	// without a mean, left out.
	EtaU, EtaE     metrics.Mean
	EtaUCI, EtaECI metrics.Interval
	// ExcludedU and ExcludedE count, by reason, the pools left out of EtaU
	// and EtaE (the macro cells' Excluded, summed over the datasets):
	// EtaU.N pools were averaged of EtaU.N plus these.
	ExcludedU, ExcludedE []metrics.ReasonCount
	// EtaUNoiseCI and EtaENoiseCI are the macro cells' noise-aware
	// intervals (Cell.EtaNoiseCI; undefined without a noise part).
	EtaUNoiseCI, EtaENoiseCI metrics.Interval
	Missing                  []string
	// OracleZero names the datasets left out of both means because every
	// pool of the solver there has V_oracle = 0 (SPEC §5).
	OracleZero []string
	// SinglePoolU and SinglePoolE are the datasets of EtaU and EtaE with a
	// single pool with a value, which the stratified intervals take as is,
	// each with the pools excluded there (the macro cells' SinglePool).
	SinglePoolU, SinglePoolE []SinglePoolDataset
	// DegenerateU and DegenerateE count the degenerate pools inside EtaU
	// and EtaE; InformativeU and InformativeE are the means over datasets
	// of the informative pools alone, with their intervals, and
	// InformativeMissing the datasets of the means without an informative
	// pool.
	DegenerateU, DegenerateE       metrics.DegenerateCounts
	InformativeU, InformativeE     metrics.Mean
	InformativeUCI, InformativeECI metrics.Interval
	InformativeMissing             []string
	// Accuracy is the solver's base accuracy over the datasets shown:
	// correct over gradeable items, summed.
	Accuracy metrics.Mean
	// Ratio, Detection and Waste are the injection experiment's headline,
	// when the report has one: mean D and W at Ratio (0.5 when present,
	// else the largest ratio below 1) over the injection bases.
	Ratio            float64
	Detection, Waste metrics.Mean
	// Selection, Order and Enforcement are the solver's regret
	// decomposition over datasets at the headline α (its macro cell's;
	// Cell.Selection), Undecomposed the pools of R̃ without one; see
	// DominantLoss.
	Selection, Order, Enforcement PoolMean
	Undecomposed                  int

	// ciPools are the ciPools of the macro cells' η and informative η
	// intervals (the noise-aware η intervals are over the same pools).
	ciPools struct{ etaU, etaE, informativeU, informativeE int }
}

// Headline returns the summary rows at the headline α (Report.Alpha): one
// per solver and pair of HeadlineScopes (the llm strategy under
// HeadlineVariant, else the reference strategies). Rows are sorted by
// solver, then strategy (llm first).
func (r Report) Headline() []HeadlineRow {
	alpha := r.Alpha
	ix := r.Index()
	ratio := r.HeadlineRatio
	var out []HeadlineRow
	for _, s := range Solvers(r.Cells, all) {
		for _, sv := range r.HeadlineScopes {
			u, uok := ix.get(s.Model, s.Mode, AllDatasets, alpha, sv.Variant, sv.Strategy, vocab.Advisory)
			e, eok := ix.get(s.Model, s.Mode, AllDatasets, alpha, sv.Variant, sv.Strategy, vocab.Enforced)
			if !uok && !eok {
				continue
			}
			row := HeadlineRow{
				Model: s.Model, Mode: s.Mode, Strategy: sv.Strategy, Variant: sv.Variant, Alpha: alpha,
				EtaU: u.Eta, EtaE: e.Eta, Missing: mergeMissing(u.Missing, e.Missing),
				EtaUCI:    u.EtaCI,
				EtaECI:    e.EtaCI,
				ExcludedU: u.Excluded, ExcludedE: e.Excluded,
				EtaUNoiseCI: u.EtaNoiseCI, EtaENoiseCI: e.EtaNoiseCI,
				Accuracy: r.pooledAccuracy(s, ix, alpha, sv),
				Ratio:    ratio,

				OracleZero: mergeMissing(u.OracleZero, e.OracleZero), SinglePoolU: u.SinglePool, SinglePoolE: e.SinglePool,
				DegenerateU: u.Degenerate, DegenerateE: e.Degenerate,
				InformativeU: u.Informative, InformativeE: e.Informative,
				InformativeUCI: u.InformativeCI, InformativeECI: e.InformativeCI,
				InformativeMissing: mergeMissing(u.InformativeMissing, e.InformativeMissing),
			}
			row.ciPools.etaU, row.ciPools.etaE = u.etaCIPools(), e.etaCIPools()
			row.ciPools.informativeU, row.ciPools.informativeE = u.informativeCIPools(), e.informativeCIPools()
			loss := e // the decomposition is the plan's: U and E cells agree
			if !eok || (uok && !e.Selection.Mean.Defined) {
				loss = u
			}
			row.Selection, row.Order, row.Enforcement, row.Undecomposed = loss.Selection, loss.Order, loss.Enforcement, loss.Undecomposed
			row.Detection, row.Waste = r.injectionHeadline(s, alpha, sv, ratio)
			out = append(out, row)
		}
	}
	return out
}

// pooledAccuracy is a solver's base accuracy summed over the datasets of
// its cells in the headline's scope.
func (r Report) pooledAccuracy(s Solver, ix *Index, alpha float64, sv StrategyVariant) metrics.Mean {
	datasets := ix.datasets[scope{math.Float64bits(alpha), sv.Strategy, vocab.Advisory}]
	var correct, gradeable int
	for _, a := range r.Accuracy {
		if a.Model == s.Model && a.Mode == s.Mode && slices.Contains(datasets, a.Dataset) {
			correct += a.Correct
			gradeable += a.Gradeable
		}
	}
	if gradeable == 0 {
		return metrics.Mean{}
	}
	return metrics.Mean{Value: float64(correct) / float64(gradeable), N: gradeable, Defined: true}
}

// headlineRatio is the injection ratio the summary shows: 0.5 when present,
// else the largest ratio below 1, else 0 (no injection).
func headlineRatio(injection []Cell) float64 {
	var best float64
	for _, c := range injection {
		if c.Ratio == 0.5 {
			return 0.5
		}
		if c.Ratio < 1 && c.Ratio > best {
			best = c.Ratio
		}
	}
	return best
}

// injectionHeadline averages D and W at ratio over the injection bases of
// one solver and strategy (regime U's cells; D and W do not depend on the
// regime). N counts the pools behind the means.
func (r Report) injectionHeadline(s Solver, alpha float64, sv StrategyVariant, ratio float64) (metrics.Mean, metrics.Mean) {
	var d, w []metrics.Mean
	for _, c := range r.Injection {
		if c.Model == s.Model && c.Mode == s.Mode && c.Alpha == alpha && c.Strategy == sv.Strategy &&
			c.Variant == sv.Variant && c.Regime == vocab.Advisory && c.Ratio == ratio {
			d, w = append(d, c.Detection), append(w, c.Waste)
		}
	}
	return meanOfMeans(d), meanOfMeans(w)
}

// meanOfMeans is the unweighted mean of the defined means, N their pools.
func meanOfMeans(ms []metrics.Mean) metrics.Mean {
	var sum float64
	var k, n int
	for _, m := range ms {
		if m.Defined {
			sum += m.Value
			k++
			n += m.N
		}
	}
	if k == 0 {
		return metrics.Mean{}
	}
	return metrics.Mean{Value: sum / float64(k), N: n, Defined: true}
}

// mergeMissing is the sorted union of two lists of datasets.
func mergeMissing(a, b []string) []string {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}
