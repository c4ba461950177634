package figures

import (
	"cmp"
	"fmt"
	"image/color"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/runs/report"
)

// Trajectory geometry, in points.
const (
	trajectoryPanel    = 250 // panel width and height
	trajectoryPerRow   = 2
	markerMinRadius    = 1.5
	markerRadiusPerR   = 4.5 // radius = markerMinRadius + r·markerRadiusPerR
	idealCornerRadius  = 7
	trajectoryAxisSlop = 0.04
)

// injectionScope is one figure 4: the injection cells of one α, strategy
// and variant.
type injectionScope struct {
	alpha float64
	report.StrategyVariant
}

// injectionBase is one panel: a base dataset and its unsolvable source.
type injectionBase struct{ dataset, source string }

// trajectoryPoint is one marker: a solver's mean D and W at ratio r.
type trajectoryPoint struct {
	ratio, d, w float64
	pools       int
}

// injectionFigures draws figure 4 for every injection scope of the drawn
// strategies, skipping panels and figures without a defined (D, W) point.
func injectionFigures(rep report.Report) []drawing {
	var scopes []injectionScope
	for _, sv := range rep.InjectionFigureScopes {
		for _, a := range report.Distinct(rep.Injection, func(c report.Cell) bool {
			return c.Strategy == sv.Strategy && c.Variant == sv.Variant
		}, func(c report.Cell) float64 { return c.Alpha }) {
			scopes = append(scopes, injectionScope{a, sv})
		}
	}
	var out []drawing
	for _, sc := range scopes {
		if d, ok := injectionFigure(rep, sc); ok {
			out = append(out, d)
		}
	}
	return out
}

// injectionFigure draws one scope's trajectories, one panel per base.
func injectionFigure(rep report.Report, sc injectionScope) (drawing, bool) {
	inScope := func(c report.Cell) bool {
		return c.Alpha == sc.alpha && c.Strategy == sc.Strategy && c.Variant == sc.Variant
	}
	var bases []injectionBase
	for _, c := range rep.Injection {
		if inScope(c) {
			bases = append(bases, injectionBase{c.Dataset, c.Source})
		}
	}
	slices.SortFunc(bases, func(a, b injectionBase) int {
		return cmp.Or(cmp.Compare(a.dataset, b.dataset), cmp.Compare(a.source, b.source))
	})
	bases = slices.Compact(bases)
	solvers := report.Solvers(rep.Injection, inScope)
	ratios := report.Distinct(rep.Injection, inScope, func(c report.Cell) float64 { return c.Ratio })
	ix := rep.Index()

	var counts countRange
	var panels []*plot.Plot
	var drawnRatios []float64
	drawnSolvers := map[report.Solver]bool{}
	var titles []string
	for _, b := range bases {
		p := trajectoryPlot(b)
		any := false
		for si, s := range solvers {
			var pts []trajectoryPoint
			for _, r := range ratios {
				key := report.Key{Solver: s, Dataset: b.dataset, Source: b.source, Ratio: r, Alpha: sc.alpha, StrategyVariant: sc.StrategyVariant, Regime: vocab.Advisory}
				c, ok := ix.Cell(key)
				if !ok {
					key.Regime = vocab.Enforced
					if c, ok = ix.Cell(key); !ok {
						continue
					}
				}
				if c.Detection.Defined && c.Waste.Defined {
					pts = append(pts, trajectoryPoint{ratio: r, d: c.Detection.Value, w: c.Waste.Value, pools: c.Waste.N})
				}
			}
			if len(pts) == 0 {
				continue
			}
			any, drawnSolvers[s] = true, true
			for _, pt := range pts {
				counts.add(pt.pools)
				if !slices.Contains(drawnRatios, pt.ratio) {
					drawnRatios = append(drawnRatios, pt.ratio)
				}
			}
			addTrajectory(p, pts, categorical(si), modeGlyph(s.Mode))
		}
		if any {
			p.Add(idealCorner())
			panels = append(panels, p)
			titles = append(titles, b.dataset+" with "+b.source)
		}
	}
	if len(panels) == 0 {
		return drawing{}, false
	}
	slices.Sort(drawnRatios)

	var rows [][]*plot.Plot
	for i := 0; i < len(panels); i += trajectoryPerRow {
		rows = append(rows, panels[i:min(i+trajectoryPerRow, len(panels))])
	}
	var legend []legendItem
	for si, s := range solvers {
		if drawnSolvers[s] {
			legend = append(legend, legendItem{label(s), glyphThumb{Color: categorical(si), Shape: modeGlyph(s.Mode), Radius: 3.5}})
		}
	}
	ratioTexts := make([]string, len(drawnRatios))
	for i, r := range drawnRatios {
		ratioTexts[i] = report.FormatAlpha(r)
		legend = append(legend, legendItem{"r = " + report.FormatAlpha(r), glyphThumb{Color: ruleGrey, Shape: draw.CircleGlyph{}, Radius: markerRadius(r)}})
	}
	legend = append(legend, legendItem{"ideal corner", glyphThumb(idealCorner().GlyphStyle)})

	title := fmt.Sprintf("Unsolvable injection at α = %s — %s", report.FormatAlpha(sc.alpha), report.ScopePhrase(sc.Strategy, sc.Variant))
	caption := sentence(
		fmt.Sprintf("Unsolvable injection at budget fraction α = %s, %s: each solver's trajectory through (D, W) space as the injection ratio r grows (marker size = r; r ∈ {%s}), one panel per base dataset with the source of its unsolvable items (%s).",
			report.FormatAlpha(sc.alpha), report.ScopePhrase(sc.Strategy, sc.Variant), strings.Join(ratioTexts, ", "), strings.Join(titles, "; ")),
		fmt.Sprintf("D is the mean share of the injected unsolvable items the plan leaves out (over the pools with at least one), W the mean share of the plan's tokens allocated to them, over the pools with a scored plan (%s pools per marker).", counts),
		"At r = 0 nothing is injected, so D is undefined and no marker is drawn. The star marks the ideal corner D = 1, W = 0.",
		"D and W depend on the plan alone; regime U's cells are shown. Marker shape: circle standard inference, triangle extended reasoning.",
	)
	cols := min(len(panels), trajectoryPerRow)
	return drawing{
		fig: Figure{
			Name:  fileStem(append(append([]string{"injection"}, stem(sc.StrategyVariant)...), "a"+report.FormatAlpha(sc.alpha))...),
			Title: title, Caption: caption, Kind: KindInjection,
			Strategy: sc.Strategy, Variant: sc.Variant, Alpha: sc.alpha,
		},
		sheet: sheet{
			width: max(vg.Length(cols)*(trajectoryPanel+14), titleStyle().Width(title)) + 2*sheetMargin, title: title, legend: legend,
			blocks: []block{panelBlock(rows, trajectoryPanel)},
		},
	}, true
}

// trajectoryPlot is an empty (D, W) panel: D on x, W on y, both [0, 1].
func trajectoryPlot(b injectionBase) *plot.Plot {
	p := newPlot(b.dataset + " with " + b.source)
	p.X.Label.Text = "detection D"
	p.Y.Label.Text = "waste W"
	p.X.Min, p.X.Max = -trajectoryAxisSlop, 1+trajectoryAxisSlop
	p.Y.Min, p.Y.Max = -trajectoryAxisSlop, 1+trajectoryAxisSlop
	grid := plotter.NewGrid()
	grid.Vertical.Color = undefinedGrey
	grid.Horizontal.Color = undefinedGrey
	p.Add(grid)
	return p
}

// addTrajectory adds one solver's line and markers to p.
func addTrajectory(p *plot.Plot, pts []trajectoryPoint, colour color.Color, shape draw.GlyphDrawer) {
	xys := make(plotter.XYs, len(pts))
	for i, pt := range pts {
		xys[i] = plotter.XY{X: pt.d, Y: pt.w}
	}
	line := &plotter.Line{XYs: xys, LineStyle: draw.LineStyle{Color: colour, Width: vg.Points(1.1)}}
	translucent := withAlpha(colour, 0xB0)
	markers := &plotter.Scatter{XYs: xys, GlyphStyleFunc: func(i int) draw.GlyphStyle {
		return draw.GlyphStyle{Color: translucent, Shape: shape, Radius: markerRadius(pts[i].ratio)}
	}}
	p.Add(line, markers)
}

// withAlpha returns c with opacity a (0–255), so that overlapping markers
// stay visible.
func withAlpha(c color.Color, a uint8) color.Color {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	n.A = a
	return n
}

// markerRadius is the marker radius of injection ratio r.
func markerRadius(r float64) vg.Length {
	return vg.Length(markerMinRadius + markerRadiusPerR*r)
}

// modeGlyph is the marker shape of a mode.
func modeGlyph(mode string) draw.GlyphDrawer {
	switch mode {
	case "standard":
		return draw.CircleGlyph{}
	case "extended":
		return draw.PyramidGlyph{}
	}
	return draw.BoxGlyph{}
}

// idealCorner is the star at D = 1, W = 0.
func idealCorner() *plotter.Scatter {
	return &plotter.Scatter{
		XYs:        plotter.XYs{{X: 1, Y: 0}},
		GlyphStyle: draw.GlyphStyle{Color: starGold, Shape: starGlyph{}, Radius: idealCornerRadius},
	}
}
