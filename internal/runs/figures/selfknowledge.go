package figures

import (
	"fmt"
	"slices"
	"strings"

	"gonum.org/v1/plot"

	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/runs/report"
)

// referenceColour is the bar colour of a partial-information reference in
// figure 7 (Okabe–Ito, apart from the mode colours of the planner's bar).
func referenceColour(s vocab.Strategy) hexColor {
	switch s {
	case vocab.Population:
		return 0x999999 // grey: what anyone knows about the items
	case vocab.SelfFeasibility:
		return 0xE69F00 // orange: its own y
	}
	return 0x56B4E9 // sky blue: its own c
}

// selfKnowledgeFigure draws figure 7 at alpha: one panel per dataset, one
// group of bars per solver — the mean η_U of the report's KnowledgeScope
// (the llm strategy under the headline variant) in the solver's mode
// colour, then the mean η_U of its partial-information references
// (vocab.PartialReferences, SPEC §4). Without a KnowledgeScope the groups
// hold the references alone, as the self-knowledge table does. ok is false
// when no reference cell at alpha has a defined η_U.
func selfKnowledgeFigure(rep report.Report, alpha float64) (drawing, bool) {
	sv := rep.KnowledgeScope
	planner := sv != (report.StrategyVariant{})
	var scopes []report.StrategyVariant
	if planner {
		scopes = append(scopes, sv)
	}
	for _, s := range vocab.PartialReferences() {
		scopes = append(scopes, report.StrategyVariant{Strategy: s, Variant: vocab.NoVariant})
	}
	keep := func(c report.Cell) bool {
		return c.Alpha == alpha && c.Regime == vocab.Advisory && slices.Contains(scopes, report.StrategyVariant{Strategy: c.Strategy, Variant: c.Variant})
	}
	datasets := report.Distinct(rep.Cells, keep, func(c report.Cell) string { return c.Dataset })
	solvers := report.Solvers(rep.Cells, keep)
	ix := rep.Index()

	var extent barExtent
	var degenerate degenerateTally
	var modes []string
	references := false
	panels := make([]barPanel, len(datasets))
	for d, ds := range datasets {
		for _, s := range solvers {
			g := barGroup{bars: make([]barSpec, len(scopes))}
			for i, scope := range scopes {
				g.bars[i].colour = referenceColour(scope.Strategy)
				if !scope.Strategy.PartialReference() {
					g.bars[i].colour = modeColor(s.Mode)
				}
				c, ok := ix.Cell(report.Key{Solver: s, Dataset: ds, Alpha: alpha, StrategyVariant: scope, Regime: vocab.Advisory})
				if !ok {
					continue
				}
				g.present = true
				g.bars[i].barValue = barValue{c.Eta, c.EtaCI}
				extent.add(g.bars[i].barValue)
				degenerate.add(c, fmt.Sprintf("%s of %s on %s", scope.Strategy, label(s), ds))
				references = references || (scope.Strategy.PartialReference() && c.Eta.Defined)
			}
			if planner && g.present && !slices.Contains(modes, s.Mode) {
				modes = append(modes, s.Mode)
			}
			panels[d].groups = append(panels[d].groups, g)
		}
	}
	if !references {
		return drawing{}, false
	}
	floor, ceil := extent.etaRange()
	ceil += 0.06 * (ceil - floor) // room above the η = 1 line

	lay := layoutGroups(solvers, 84)
	m := efficiencyMetric()
	m.label = "η (regime U)"
	var rows [][]*plot.Plot
	for d, ds := range datasets {
		panels[d].floor, panels[d].ceil = floor, ceil
		rows = append(rows, []*plot.Plot{barPlot(ds, panels[d], lay.labels, m, lay.rotate)})
	}

	title := fmt.Sprintf("Self-knowledge at α = %s — the partial-information references", report.FormatAlpha(alpha))
	groups := "One panel per dataset, one group of bars per solver: the mean η_U (regime U) of three reference plans built for that solver from partial information (SPEC §4); the report has no planner to set beside them."
	if planner {
		phrase := report.ScopePhrase(sv.Strategy, sv.Variant)
		title = fmt.Sprintf("Self-knowledge at α = %s — %s beside its references", report.FormatAlpha(alpha), phrase)
		groups = fmt.Sprintf("One panel per dataset, one group of bars per solver: first the mean η_U (regime U) of the planner, %s, in its mode colour; then the mean η_U of three reference plans built for that solver from partial information (SPEC §4).", phrase)
	}
	modeNote := ""
	if planner {
		modeNote = "The planner's " + strings.TrimPrefix(modePhrase(modes), "Bar ")
	}
	caption := sentence(
		fmt.Sprintf("Self-knowledge at budget fraction α = %s: does a planner beat what is known about the items without knowing itself?", report.FormatAlpha(alpha)),
		groups,
		"The population reference (grey) knows only the items: the other models' success rates and median costs (leave-model-out), scaled to the solver's total verbosity; self_feasibility (orange) knows which items the solver itself solves, but only the population's costs; self_cost (sky blue) knows the solver's own costs, but only the population's success rates.",
		"A planner above population knows more than what is known about the items; self_feasibility and self_cost show what knowing its own accuracy or its own costs alone would be worth.",
		fmt.Sprintf("Each bar averages %s (%s pools per bar); whiskers are %s.", m.over, extent.counts, intervalPhrase(rep.Bootstrap)),
		extent.whiskers.sentence(),
		m.meaning,
		modeNote,
		shortBarNote,
		"n/a: no pool with a scored plan (undefined mean), or, for a reference, none with a population to learn from (no_population); an empty slot: no records.",
		clippedNote(extent),
		degenerate.sentence("the bars"),
	)
	var legend []legendItem
	for _, md := range sortedModes(modes) {
		legend = append(legend, legendItem{string(sv.Strategy) + ", " + modeName(md), swatchThumb{modeColor(md)}})
	}
	for _, s := range vocab.PartialReferences() {
		legend = append(legend, legendItem{string(s), swatchThumb{referenceColour(s)}})
	}
	legend = append(legend, legendItem{extent.whiskers.legend(rep.Bootstrap), whiskerThumb{}})
	name := []string{string(KindSelfKnowledge)}
	if planner {
		name = append(name, stem(sv)...)
	}
	return drawing{
		fig: Figure{
			Name:  fileStem(append(name, "a"+report.FormatAlpha(alpha))...),
			Title: title, Caption: caption, Kind: KindSelfKnowledge,
			Strategy: sv.Strategy, Variant: sv.Variant, Alpha: alpha,
		},
		sheet: sheet{width: max(lay.width, titleStyle().Width(title)+2*sheetMargin), title: title, legend: legend, blocks: []block{panelBlock(rows, lay.rowHeight)}},
	}, true
}
