package htmlreport

import (
	"fmt"
	"slices"
	"strings"

	"github.com/triage-eval/triage/internal/runs/figures"
	"github.com/triage-eval/triage/internal/runs/report"
)

// section is a part of the page: figures (by index into Input.Figures)
// beside their tables.
type section struct {
	id, title string
	pairs     []pair
}

// pair is figures shown beside the tables they draw.
type pair struct {
	figures []int
	tables  []report.Table
}

// layout places every figure of in once, beside the tables it draws (found
// among tables by their titles), in SPEC §8's order; figures of an unknown
// kind go to a last section on their own.
func layout(in Input, tables []report.Table) []section {
	placed := make([]bool, len(in.Figures))
	of := func(kinds ...figures.Kind) []int {
		var out []int
		for i, f := range in.Figures {
			if !placed[i] && slices.Contains(kinds, f.Kind) {
				out = append(out, i)
				placed[i] = true
			}
		}
		return out
	}

	bars := section{id: "efficiency", title: "Triage efficiency and regret"}
	for _, i := range of(figures.KindEfficiency, figures.KindRegret) {
		f := in.Figures[i]
		title := report.MainTableTitle(f.Kind == figures.KindRegret, f.Alpha, f.Strategy, f.Variant)
		bars.pairs = append(bars.pairs, pair{figures: []int{i}, tables: titled(tables, func(t string) bool { return t == title })})
	}

	heat := section{id: "heatmaps", title: "Heat maps: base accuracy, and η per α"}
	if acc := of(figures.KindAccuracyHeatmap); len(acc) > 0 {
		heat.pairs = append(heat.pairs, pair{figures: acc, tables: []report.Table{in.Report.AccuracyTable()}})
	}
	for _, i := range of(figures.KindEtaHeatmap) {
		f := in.Figures[i]
		scope := ", " + report.ScopePhrase(f.Strategy, f.Variant)
		if n := len(heat.pairs); n > 0 && sameScope(in.Figures, heat.pairs[n-1].figures, f) {
			heat.pairs[n-1].figures = append(heat.pairs[n-1].figures, i)
			continue
		}
		heat.pairs = append(heat.pairs, pair{figures: []int{i}, tables: titled(tables, func(t string) bool {
			return strings.HasPrefix(t, "η_U / η_E by α — ") && strings.HasSuffix(t, scope)
		})})
	}

	injection := section{id: "injection", title: "Unsolvable injection"}
	for _, i := range of(figures.KindInjection) {
		f := in.Figures[i]
		scope := fmt.Sprintf(", α = %s — %s", report.FormatAlpha(f.Alpha), report.ScopePhrase(f.Strategy, f.Variant))
		injection.pairs = append(injection.pairs, pair{figures: []int{i}, tables: titled(tables, func(t string) bool {
			return (strings.HasPrefix(t, "Detection D / waste W by injection ratio — ") || strings.HasPrefix(t, "η_U / η_E by injection ratio — ")) &&
				strings.HasSuffix(t, scope)
		})})
	}

	resolve := section{id: "budget-aware", title: "Budget-aware re-solve"}
	if figs := of(figures.KindBudgetAwareSolvers, figures.KindBudgetAwareDatasets); len(figs) > 0 || len(in.BudgetAware) > 0 {
		var ts []report.Table
		if len(in.BudgetAware) > 0 {
			ts = append(ts, budgetAwareTable(in.BudgetAware))
		}
		resolve.pairs = append(resolve.pairs, pair{figures: figs, tables: ts})
	}

	why := section{id: "why", title: "Why plans lose value"}
	for _, i := range of(figures.KindLosses) {
		f := in.Figures[i]
		why.pairs = append(why.pairs, pair{figures: []int{i}, tables: titled(tables, func(t string) bool {
			return t == report.LossTableTitle(f.Alpha, f.Strategy, f.Variant)
		})})
	}
	for _, i := range of(figures.KindSelfKnowledge) {
		f := in.Figures[i]
		why.pairs = append(why.pairs, pair{figures: []int{i}, tables: titled(tables, func(t string) bool {
			return t == report.SelfKnowledgeTableTitle(f.Alpha)
		})})
	}

	noise := section{id: "noise", title: "Measurement noise"}
	if t, ok := in.Report.NoiseTable(); ok {
		noise.pairs = append(noise.pairs, pair{tables: []report.Table{t}})
	}

	spend := section{id: "spend", title: "Spend"}
	if in.Spend != nil {
		spend.pairs = append(spend.pairs, pair{tables: []report.Table{*in.Spend}})
	}

	other := section{id: "other-figures", title: "Other figures"}
	for i := range in.Figures {
		if !placed[i] {
			other.pairs = append(other.pairs, pair{figures: []int{i}})
		}
	}
	return []section{bars, heat, injection, resolve, why, noise, spend, other}
}

// titled returns the tables whose title match accepts, in order.
func titled(tables []report.Table, match func(string) bool) []report.Table {
	var out []report.Table
	for _, t := range tables {
		if match(t.Title) {
			out = append(out, t)
		}
	}
	return out
}

// sameScope reports whether the η heat maps at indices show the strategy
// and variant of f (so that regimes U and E share their tables).
func sameScope(figs []figures.Figure, indices []int, f figures.Figure) bool {
	g := figs[indices[0]]
	return g.Kind == figures.KindEtaHeatmap && g.Strategy == f.Strategy && g.Variant == f.Variant
}
