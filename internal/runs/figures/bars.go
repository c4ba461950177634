package figures

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/runs/report"
)

// etaFloor is the lowest η a bar figure's axis shows: bars below it are cut
// there and labelled with their value, so that one pool far below random
// does not flatten every other bar.
const etaFloor = -2

// barMetric is what figures 1 and 2 plot: η or R̃.
type barMetric struct {
	kind   Kind
	title  string // "Triage efficiency"
	symbol string // "η", in captions
	// label names the metric inside the image, where a combining tilde
	// (R̃) does not render well: the Y axis label and the legend's prefix.
	label string
	mean  func(report.Cell) metrics.Mean
	ci    func(report.Cell) metrics.Interval
	// fixedRange is true for R̃ ∈ [0, 1]: the axis is [0, 1] whatever
	// the data.
	fixedRange bool
	// meaning explains the metric's scale in the caption; over names the
	// pools a mean averages.
	meaning, over string
	// isEta is set for η, whose means can include degenerate pools.
	isEta bool
}

// degenerate is the caption's note on the degenerate pools of the η_U
// bars, "" for R̃ (defined only where V_oracle > 0, and measured at D2).
func (m barMetric) degenerate(d degenerateTally) string {
	if !m.isEta {
		return ""
	}
	return d.sentence("the " + m.symbol + "_U bars")
}

func efficiencyMetric() barMetric {
	return barMetric{
		kind: KindEfficiency, title: "Triage efficiency", symbol: "η", label: "η", isEta: true,
		mean:    func(c report.Cell) metrics.Mean { return c.Eta },
		ci:      func(c report.Cell) metrics.Interval { return c.EtaCI },
		over:    "the cell's pools with a scored plan",
		meaning: "η = 1 is oracle triage and η = 0 a random planner (grey reference lines); η < 0 is worse than random.",
	}
}

func regretMetric() barMetric {
	return barMetric{
		kind: KindRegret, title: "Normalized regret", symbol: "R̃", label: "normalized regret",
		mean:       func(c report.Cell) metrics.Mean { return c.Regret },
		ci:         func(c report.Cell) metrics.Interval { return c.RegretCI },
		fixedRange: true,
		over:       "the cell's pools with a scored plan and V_oracle > 0",
		meaning:    "R̃ = (V_oracle − V_M) / V_oracle: R̃ = 0 is oracle (no value lost), R̃ = 1 full regret (grey reference lines); lower is better.",
	}
}

// barFigure draws figure 1 or 2 for one strategy-variant at alpha: one
// panel per dataset, one group of bars per solver. ok is false when no
// mean is defined.
func barFigure(rep report.Report, sv report.StrategyVariant, alpha float64, m barMetric) (drawing, bool) {
	keep := func(c report.Cell) bool {
		return c.Alpha == alpha && c.Strategy == sv.Strategy && c.Variant == sv.Variant
	}
	datasets := report.Distinct(rep.Cells, keep, func(c report.Cell) string { return c.Dataset })
	solvers := report.Solvers(rep.Cells, keep)
	ix := rep.Index()

	var extent barExtent
	var degenerate degenerateTally
	var modes []string
	panels := make([]barPanel, len(datasets))
	for d, ds := range datasets {
		for _, s := range solvers {
			key := report.Key{Solver: s, Dataset: ds, Alpha: alpha, StrategyVariant: sv}
			key.Regime = vocab.Advisory
			u, uok := ix.Cell(key)
			key.Regime = vocab.Enforced
			e, eok := ix.Cell(key)
			colour := modeColor(s.Mode)
			g := barGroup{present: uok || eok, bars: []barSpec{{colour: colour}, {colour: colour, hatched: true}}}
			if uok {
				g.bars[0].barValue, g.accuracy = barValue{m.mean(u), m.ci(u)}, u.BaseAccuracy
				degenerate.add(u, label(s)+" on "+ds)
			}
			if eok {
				g.bars[1].barValue, g.accuracy = barValue{m.mean(e), m.ci(e)}, e.BaseAccuracy
			}
			for _, b := range g.bars {
				extent.add(b.barValue)
			}
			if g.present && !slices.Contains(modes, s.Mode) {
				modes = append(modes, s.Mode)
			}
			panels[d].groups = append(panels[d].groups, g)
		}
	}
	if !extent.counts.seen {
		return drawing{}, false
	}
	floor, ceil := 0.0, 1.0
	if !m.fixedRange {
		floor, ceil = extent.etaRange()
	}
	ceil += 0.06 * (ceil - floor) // room above the η = 1 line

	lay := layoutGroups(solvers, 52)
	var rows [][]*plot.Plot
	for d, ds := range datasets {
		panels[d].floor, panels[d].ceil = floor, ceil
		rows = append(rows, []*plot.Plot{barPlot(ds, panels[d], lay.labels, m, lay.rotate)})
	}

	title := fmt.Sprintf("%s at α = %s — %s", m.title, report.FormatAlpha(alpha), report.ScopePhrase(sv.Strategy, sv.Variant))
	caption := sentence(
		fmt.Sprintf("%s at budget fraction α = %s, %s.", m.title, report.FormatAlpha(alpha), report.ScopePhrase(sv.Strategy, sv.Variant)),
		fmt.Sprintf("One panel per dataset, one group of bars per solver: the solid bar is the mean %s_U (regime U, advisory allocations), the hatched bar the mean %s_E (regime E, enforced allocations), each over %s (%s pools per bar).", m.symbol, m.symbol, m.over, extent.counts),
		"Whiskers are "+intervalPhrase(rep.Bootstrap)+"; the red dashed mark is the solver's base accuracy on the dataset.",
		extent.whiskers.sentence(),
		m.meaning,
		modePhrase(modes),
		shortBarNote,
		"n/a: no pool with a scored plan (undefined mean); an empty slot: no records.",
		clippedNote(extent),
		m.degenerate(degenerate),
	)
	legend := []legendItem{
		{m.label + ", regime U (solid)", barThumb{colour: ruleGrey}},
		{m.label + ", regime E (hatched)", barThumb{colour: ruleGrey, hatched: true}},
	}
	for _, md := range sortedModes(modes) {
		legend = append(legend, legendItem{modeName(md), swatchThumb{modeColor(md)}})
	}
	legend = append(legend,
		legendItem{"base accuracy", lineThumb(accuracyStyle())},
		legendItem{extent.whiskers.legend(rep.Bootstrap), whiskerThumb{}},
	)
	return drawing{
		fig: Figure{
			Name:  fileStem(append(append([]string{string(m.kind)}, stem(sv)...), "a"+report.FormatAlpha(alpha))...),
			Title: title, Caption: caption, Kind: m.kind,
			Strategy: sv.Strategy, Variant: sv.Variant, Alpha: alpha,
		},
		sheet: sheet{width: lay.width, title: title, legend: legend, blocks: []block{panelBlock(rows, lay.rowHeight)}},
	}, true
}

// groupLayout is the geometry of a figure with one panel per dataset and
// one group of bars per solver, the panels stacked: the sheet's width, each
// panel's height, the groups' labels and whether they are rotated to fit.
type groupLayout struct {
	width, rowHeight vg.Length
	labels           []string
	rotate           bool
}

// layoutGroups lays out one group per solver, each perGroup points wide
// (the sheet at least 468 points); labels that do not fit under their group
// are rotated, and the panels grow to hold them.
func layoutGroups(solvers []report.Solver, perGroup vg.Length) groupLayout {
	lay := groupLayout{rowHeight: 170, labels: make([]string, len(solvers))}
	for i, s := range solvers {
		lay.labels[i] = label(s)
	}
	lay.width = max(468, 70+perGroup*vg.Length(len(solvers)))
	widest := maxWidth(textStyle(sizeTick, false, draw.XCenter, draw.YTop), lay.labels)
	lay.rotate = widest > 0.9*(lay.width-70)/vg.Length(len(solvers))
	if lay.rotate {
		lay.rowHeight += 0.5 * widest
	}
	return lay
}

// barExtent gathers what the bars of a figure span: the pools behind its
// means, their lowest and highest values and interval ends, whether a
// mean lies below etaFloor (clipped) or only an interval's end does
// (whiskerClipped), and its whiskers.
type barExtent struct {
	counts          countRange
	lowest, highest float64
	clipped         bool
	whiskerClipped  bool
	whiskers        whiskerTally
}

// add takes one bar into the extent; an undefined mean is not counted.
func (x *barExtent) add(bv barValue) {
	if !bv.mean.Defined {
		return
	}
	x.counts.add(bv.mean.N)
	x.lowest, x.highest = min(x.lowest, bv.mean.Value), max(x.highest, bv.mean.Value)
	if bv.ci.Defined {
		x.lowest, x.highest = min(x.lowest, bv.ci.Lo), max(x.highest, bv.ci.Hi)
		x.whiskers.add(bv.mean.N)
		x.whiskerClipped = x.whiskerClipped || bv.ci.Lo < etaFloor
	}
	x.clipped = x.clipped || bv.mean.Value < etaFloor
}

// etaRange is the η axis of the bars: from the lowest value rounded down to
// a quarter (never below etaFloor, never above 0) to the highest value or
// 1, whichever is higher.
func (x barExtent) etaRange() (floor, ceil float64) {
	return math.Max(math.Floor(min(x.lowest, 0)*4)/4, etaFloor), math.Max(x.highest, 1)
}

// barPlot is one dataset's panel.
func barPlot(dataset string, panel barPanel, labels []string, m barMetric, rotate bool) *plot.Plot {
	p := groupPlot(dataset, labels, m.label, rotate)
	refLow := draw.LineStyle{Color: ruleGrey, Width: vg.Points(0.8)}
	refHigh := draw.LineStyle{Color: ruleGrey, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(4), vg.Points(2)}}
	p.Add(hRule{y: 1, style: refHigh}, panel, hRule{y: 0, style: refLow})
	p.Y.Min, p.Y.Max = panel.floor, panel.ceil
	return p
}

// groupPlot is an empty panel of groups of bars: one tick per group at
// x = 0, 1, …, labelled (rotated by 30° when rotate is set), the Y axis
// labelled yLabel.
func groupPlot(title string, labels []string, yLabel string, rotate bool) *plot.Plot {
	p := newPlot(title)
	p.Y.Label.Text = yLabel
	p.X.Padding, p.Y.Padding = 0, 0
	ticks := make(plot.ConstantTicks, len(labels))
	for i, l := range labels {
		ticks[i] = plot.Tick{Value: float64(i), Label: l}
	}
	p.X.Tick.Marker = ticks
	if rotate {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
	}
	return p
}

// clippedNote explains the bars and whiskers cut at etaFloor, when there
// are any: a cut bar is labelled with its value, a cut whisker's end is
// only in the figure's table.
func clippedNote(x barExtent) string {
	floor := strings.Replace(report.FormatAlpha(etaFloor), "-", "−", 1)
	switch {
	case x.clipped && x.whiskerClipped:
		return fmt.Sprintf("Bars and whiskers below %s are cut at %s: a cut bar is labelled with its value, a cut whisker's end is in the table beside the figure.", floor, floor)
	case x.clipped:
		return fmt.Sprintf("Bars below %s are cut at %s and labelled with their value.", floor, floor)
	case x.whiskerClipped:
		return fmt.Sprintf("Whiskers below %s are cut at %s; their ends are in the table beside the figure.", floor, floor)
	}
	return ""
}

// sortedModes orders modes standard, extended, then the others by name.
func sortedModes(modes []string) []string {
	rank := func(m string) string {
		switch m {
		case "standard":
			return "0"
		case "extended":
			return "1"
		}
		return "2" + m
	}
	out := slices.Clone(modes)
	slices.SortFunc(out, func(a, b string) int { return cmp.Compare(rank(a), rank(b)) })
	return out
}

// modeName is a mode's legend label.
func modeName(mode string) string {
	switch mode {
	case "standard":
		return "standard inference"
	case "extended":
		return "extended reasoning"
	}
	return "mode " + mode
}

// maxWidth is the width of the widest of labels in sty.
func maxWidth(sty interface{ Width(string) vg.Length }, labels []string) vg.Length {
	var w vg.Length
	for _, l := range labels {
		w = max(w, sty.Width(l))
	}
	return w
}
