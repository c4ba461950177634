package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// injectionScope is one set of injection tables: a base dataset and its
// unsolvable source at one α, strategy and variant.
type injectionScope struct {
	dataset, source string
	alpha           float64
	StrategyVariant
}

// injectionScopes lists the scopes of r.Injection, sorted (LLM strategies
// first, as everywhere).
func (r Report) injectionScopes() []injectionScope {
	var out []injectionScope
	for _, c := range r.Injection {
		out = append(out, injectionScope{c.Dataset, c.Source, c.Alpha, StrategyVariant{c.Strategy, c.Variant}})
	}
	slices.SortFunc(out, func(a, b injectionScope) int {
		return cmp.Or(cmp.Compare(a.dataset, b.dataset), cmp.Compare(a.source, b.source), cmp.Compare(a.alpha, b.alpha),
			CompareStrategyVariants(a.StrategyVariant, b.StrategyVariant))
	})
	return slices.Compact(out)
}

// injectionCell finds the injection cell of a solver at one scope, ratio
// and regime.
func injectionCell(ix *Index, s Solver, sc injectionScope, ratio float64, regime vocab.Regime) (Cell, bool) {
	return ix.Cell(Key{Solver: s, Dataset: sc.dataset, Source: sc.source, Ratio: ratio, Alpha: sc.alpha, StrategyVariant: sc.StrategyVariant, Regime: regime})
}

// InjectionTables returns, per (base dataset, source, α, strategy,
// variant), the unsolvable-injection experiment's two tables: detection
// and waste by ratio, then η_U / η_E by ratio.
func (r Report) InjectionTables() []Table {
	ix := r.Index()
	var out []Table
	for _, sc := range r.injectionScopes() {
		keep := func(c Cell) bool {
			return c.Dataset == sc.dataset && c.Source == sc.source && c.Alpha == sc.alpha && c.Strategy == sc.Strategy && c.Variant == sc.Variant
		}
		ratios := Distinct(r.Injection, keep, func(c Cell) float64 { return c.Ratio })
		rows := Solvers(r.Injection, keep)
		what := fmt.Sprintf("%s with unsolvable problems of %s, α = %s — %s", sc.dataset, sc.source, alphaText(sc.alpha), ScopePhrase(sc.Strategy, sc.Variant))
		header := []string{"Model", "Mode"}
		for _, ratio := range ratios {
			header = append(header, "r = "+alphaText(ratio))
		}
		dw := Table{
			Title: "Detection D / waste W by injection ratio — " + what,
			Notes: []string{
				"Rows: solvers (model, mode); columns: injection ratio r (round(r·n) of each pool's n problems replaced by unsolvable problems, the same pools for every solver). Each cell: mean D (the share of the injected unsolvable items the plan leaves out, over the pools with at least one) / mean W (the share of the plan's tokens allocated to them), n = pools with a scored plan. Ideal: D = 1, W = 0. D and W depend on the plan alone, not on the regime; at r = 0 nothing is injected and D is undefined.",
			},
			Header: append(slices.Clone(header), "excluded"),
			Align:  "ll" + strings.Repeat("r", len(ratios)) + "l",
		}
		eta := Table{
			Title: "η_U / η_E by injection ratio — " + what,
			Notes: []string{
				"Rows: solvers (model, mode); columns: injection ratio r. Each cell: mean η over the pools with a scored plan, regime U / regime E; unsolvable items count as never solved (SPEC §1), so at r = 1 the oracle is 0, every plan reaches it, even one spending every token on unsolvable items, and its η is 1 by convention (a D1 pool, marked): there, read the plan's detection D and waste W above, not η.",
				noteCounts, noteExcl,
			},
			Header: append(slices.Clone(header), "excluded"),
			Align:  "ll" + strings.Repeat("r", len(ratios)) + "l",
		}
		if slices.ContainsFunc(r.Injection, func(c Cell) bool { return keep(c) && c.Degenerate.Total() > 0 }) {
			eta.Notes = append(eta.Notes, noteDegenerate)
		}
		for _, s := range rows {
			dwRow, etaRow := []string{s.Model, s.Mode}, []string{s.Model, s.Mode}
			var dwExcl, etaExcl []string
			for _, ratio := range ratios {
				u, uok := injectionCell(ix, s, sc, ratio, vocab.Advisory)
				e, eok := injectionCell(ix, s, sc, ratio, vocab.Enforced)
				plan := u
				if !uok {
					plan = e
				}
				switch {
				case !uok && !eok:
					dwRow, etaRow = append(dwRow, ""), append(etaRow, "")
					continue
				default:
					dwRow = append(dwRow, fmt.Sprintf("%s / %s (n=%d)", withCI(plan.Detection, plan.DetectionCI, plan.Detection.N), withCI(plan.Waste, plan.WasteCI, plan.Waste.N), plan.Waste.N))
					etaRow = append(etaRow, fmt.Sprintf("%s / %s (n=%s%s)", withCI(u.Eta, u.EtaCI, u.etaCIPools()), withCI(e.Eta, e.EtaCI, e.etaCIPools()), pairCount(u.Eta.N, e.Eta.N), degenerateText(u, e)))
				}
				if ex := reasonsText(plan.Excluded, ", "); ex != "" {
					dwExcl = append(dwExcl, "r="+alphaText(ratio)+": "+ex)
				}
				if ex := pairReasons(exclusions(u, false), exclusions(e, false)); ex != "" {
					etaExcl = append(etaExcl, "r="+alphaText(ratio)+": "+ex)
				}
			}
			dw.Rows = append(dw.Rows, append(dwRow, strings.Join(dwExcl, "; ")))
			eta.Rows = append(eta.Rows, append(etaRow, strings.Join(etaExcl, "; ")))
		}
		out = append(out, withFewPoolsNote(dw), withFewPoolsNote(eta))
	}
	return out
}

// InjectionCSV writes one row per injection cell, in Injection order:
//
//	model, mode, dataset, source, ratio, alpha, variant, strategy, regime,
//	pools, detection, waste, eta, regret,
//	detection_lo, detection_hi, waste_lo, waste_hi, eta_lo, eta_hi, regret_lo, regret_hi,
//	degenerate_d1, degenerate_d2,
//	eta_informative, eta_informative_n, eta_informative_lo, eta_informative_hi
//
// at full precision, an empty field where a mean or an interval is
// undefined (the _lo/_hi columns are the 95% bootstrap intervals; the
// degenerate and informative columns are cells.csv's). pools counts the
// cell's records, excluded ones included (cells.json has every count).
func (r Report) InjectionCSV(w io.Writer) error {
	rows := [][]string{{"model", "mode", "dataset", "source", "ratio", "alpha", "variant", "strategy", "regime", "pools", "detection", "waste", "eta", "regret",
		"detection_lo", "detection_hi", "waste_lo", "waste_hi", "eta_lo", "eta_hi", "regret_lo", "regret_hi",
		"degenerate_d1", "degenerate_d2", "eta_informative", "eta_informative_n", "eta_informative_lo", "eta_informative_hi"}}
	for _, c := range r.Injection {
		row := []string{
			c.Model, c.Mode, c.Dataset, c.Source, full(c.Ratio), full(c.Alpha), string(c.Variant), string(c.Strategy), string(c.Regime),
			itoa(c.Pools), fullMean(c.Detection), fullMean(c.Waste), fullMean(c.Eta), fullMean(c.Regret),
		}
		for _, ci := range []metrics.Interval{c.DetectionCI, c.WasteCI, c.EtaCI, c.RegretCI} {
			row = append(row, ciBounds(ci)...)
		}
		rows = append(rows, append(row, degenerateColumns(c)...))
	}
	return writeCSV(w, rows)
}
