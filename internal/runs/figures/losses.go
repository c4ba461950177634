package figures

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/runs/report"
)

// Figure 6's geometry in data units (group g spans [g − ½, g + ½]) and
// colours: one per loss, Okabe–Ito, apart from the mode colours of
// figures 1 and 2.
const (
	lossBarWidth = 0.44
	lossMarkHalf = 0.34 // half the width of an R̃ mark's line

	selectionColour   hexColor = 0x0072B2 // blue
	orderColour       hexColor = 0xE69F00 // orange
	enforcementColour hexColor = 0xCC79A7 // reddish purple
)

// lossBar is one solver's stacked bar: the three mean losses (undefined
// when no pool has a decomposition) and the mean R̃_U and R̃_E marked on
// it. present is false for a solver without any cell in the panel.
type lossBar struct {
	selection, order, enforcement metrics.Mean
	regretU, regretE              metrics.Mean
	present                       bool
}

// segments are the bar's stacked segments, bottom up: a non-negative loss
// stacks up from 0 and a negative one down from 0, so that the part of
// the bar above 0 reaches selection + order (+ enforcement when positive).
func (b lossBar) segments() []lossSegment {
	var out []lossSegment
	up, down := 0.0, 0.0
	for _, s := range []struct {
		m      metrics.Mean
		colour color.Color
	}{{b.selection, selectionColour}, {b.order, orderColour}, {b.enforcement, enforcementColour}} {
		if !s.m.Defined || s.m.Value == 0 {
			continue
		}
		if v := s.m.Value; v > 0 {
			out = append(out, lossSegment{up, up + v, s.colour})
			up += v
		} else {
			out = append(out, lossSegment{down + v, down, s.colour})
			down += v
		}
	}
	return out
}

// lossSegment is the part [lo, hi] of a stacked bar in one colour.
type lossSegment struct {
	lo, hi float64
	colour color.Color
}

// lossPanel is a plot.Plotter drawing one dataset's stacked bars, x =
// solver index, with the R̃ marks; a bar without a decomposition is marked
// "n/a", and a decomposed bar shorter than minBarHeight (every loss 0, or
// nearly) is an outlined tick on the zero line labelled with the sum of
// its losses (barEnds).
type lossPanel struct {
	bars        []lossBar
	floor, ceil float64
}

// DataRange implements plot.DataRanger.
func (l lossPanel) DataRange() (xmin, xmax, ymin, ymax float64) {
	return -0.5, float64(len(l.bars)) - 0.5, l.floor, l.ceil
}

// Plot implements plot.Plotter.
func (l lossPanel) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	note := textStyle(6, false, draw.XCenter, draw.YBottom)
	for i, b := range l.bars {
		if !b.present {
			continue
		}
		x := float64(i)
		left, right := trX(x-lossBarWidth/2), trX(x+lossBarWidth/2)
		if !b.selection.Defined {
			c.FillText(note, vg.Point{X: trX(x), Y: trY(0) + 1.5}, "n/a")
		}
		base := trY(0)
		top, bottom := base, base
		for _, s := range b.segments() {
			fillBar(&c, vg.Rectangle{Min: vg.Point{X: left, Y: trY(s.lo)}, Max: vg.Point{X: right, Y: trY(s.hi)}}, s.colour, false)
			top, bottom = max(top, trY(s.hi)), min(bottom, trY(s.lo))
		}
		total, decomposed := b.total()
		var lo, hi vg.Length
		short := false
		if decomposed && top-bottom < minBarHeight {
			lo, hi, short = barEnds(base, trY(total))
			r := vg.Rectangle{Min: vg.Point{X: left, Y: lo}, Max: vg.Point{X: right, Y: hi}}
			c.SetColor(white)
			c.Fill(r.Path())
			c.SetLineStyle(draw.LineStyle{Color: black, Width: vg.Points(0.8)})
			c.Stroke(r.Path())
		}
		for _, m := range []struct {
			mean metrics.Mean
			mark lossMark
		}{{b.regretU, regretUMark()}, {b.regretE, regretEMark()}} {
			if m.mean.Defined {
				m.mark.draw(&c, trX(x-lossMarkHalf), trX(x+lossMarkHalf), trY(m.mean.Value))
			}
		}
		if short {
			labelTick(&c, tickMark{x: trX(x), lo: lo, hi: hi, down: lo < base, reachLo: lo, reachHi: hi, halfWidth: (right - left) / 2}, total)
		}
	}
}

// total is the sum of the bar's three losses (the mean R̃_E of its
// decomposed pools), ok false when the decomposition is undefined.
func (b lossBar) total() (sum float64, ok bool) {
	if !b.selection.Defined || !b.order.Defined || !b.enforcement.Defined {
		return 0, false
	}
	return b.selection.Value + b.order.Value + b.enforcement.Value, true
}

// lossMark is how figure 6 marks a mean R̃ on a bar: a horizontal line
// wider than the bar with a glyph at one end (left for R̃_U, right for
// R̃_E), so that two marks at one height stay apart.
type lossMark struct {
	line  draw.LineStyle
	glyph draw.GlyphStyle
	right bool
}

// regretUMark marks R̃_U: a solid black line, a white circle on its left.
func regretUMark() lossMark {
	return lossMark{
		line:  draw.LineStyle{Color: black, Width: vg.Points(1.3)},
		glyph: draw.GlyphStyle{Color: black, Shape: outlinedGlyph{draw.CircleGlyph{}}, Radius: 2.6},
	}
}

// regretEMark marks R̃_E: a dashed black line, a black triangle on its
// right.
func regretEMark() lossMark {
	return lossMark{
		line:  draw.LineStyle{Color: black, Width: vg.Points(1.3), Dashes: []vg.Length{vg.Points(3), vg.Points(1.5)}},
		glyph: draw.GlyphStyle{Color: black, Shape: draw.PyramidGlyph{}, Radius: 2.8},
		right: true,
	}
}

// draw draws the mark from x0 to x1 at y.
func (m lossMark) draw(c *draw.Canvas, x0, x1, y vg.Length) {
	c.StrokeLine2(m.line, x0, y, x1, y)
	at := x0
	if m.right {
		at = x1
	}
	c.DrawGlyphNoClip(m.glyph, vg.Point{X: at, Y: y})
}

// Thumbnail implements plot.Thumbnailer: the mark as the legend shows it.
func (m lossMark) Thumbnail(c *draw.Canvas) {
	m.draw(c, c.Min.X+3, c.Max.X-3, c.Center().Y)
}

// outlinedGlyph draws its shape filled white and outlined in the glyph's
// colour.
type outlinedGlyph struct{ shape draw.GlyphDrawer }

// DrawGlyph implements draw.GlyphDrawer.
func (o outlinedGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	fill := sty
	fill.Color = white
	o.shape.DrawGlyph(c, fill, pt)
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(0.9)})
	var ring vg.Path
	ring.Move(vg.Point{X: pt.X + sty.Radius, Y: pt.Y})
	ring.Arc(pt, sty.Radius, 0, 2*math.Pi)
	ring.Close()
	c.Stroke(ring)
}

// lossFigure draws figure 6 for one strategy-variant at alpha: one panel
// per dataset, one stacked bar per solver. The losses belong to the plan,
// so the U and E cells of a solver carry the same means; the U cell's are
// drawn (the E cell's when there is no U cell or only the E cell has a
// decomposition, as in the report's "Why plans lose value" table). ok is false when no cell
// in scope has a decomposition.
func lossFigure(rep report.Report, sv report.StrategyVariant, alpha float64) (drawing, bool) {
	keep := func(c report.Cell) bool {
		return c.Alpha == alpha && c.Strategy == sv.Strategy && c.Variant == sv.Variant
	}
	datasets := report.Distinct(rep.Cells, keep, func(c report.Cell) string { return c.Dataset })
	solvers := report.Solvers(rep.Cells, keep)
	ix := rep.Index()

	var losses, regrets countRange
	var undecomposed, regretPools, mismatched int
	var lacking []string
	lowest, highest := 0.0, 1.0
	panels := make([]lossPanel, len(datasets))
	for d, ds := range datasets {
		for _, s := range solvers {
			key := report.Key{Solver: s, Dataset: ds, Alpha: alpha, StrategyVariant: sv, Regime: vocab.Advisory}
			u, uok := ix.Cell(key)
			key.Regime = vocab.Enforced
			e, eok := ix.Cell(key)
			b := lossBar{present: uok || eok}
			plan := u // the decomposition is the plan's: the report's tables' choice
			if !uok || (eok && !u.Selection.Mean.Defined && e.Selection.Mean.Defined) {
				plan = e
			}
			if b.present {
				b.selection, b.order, b.enforcement = plan.Selection.Mean, plan.Order.Mean, plan.Enforcement.Mean
				if b.selection.Defined {
					losses.add(b.selection.N)
				}
				undecomposed += plan.Undecomposed
				regretPools += plan.Regret.N
				if plan.Undecomposed > 0 {
					lacking = append(lacking, fmt.Sprintf("%s on %s (%d of %d)", label(s), ds, plan.Undecomposed, plan.Regret.N))
				}
			}
			for _, c := range []struct {
				cell report.Cell
				ok   bool
				dst  *metrics.Mean
			}{{u, uok, &b.regretU}, {e, eok, &b.regretE}} {
				if !c.ok {
					continue
				}
				*c.dst = c.cell.Regret
				mismatched += c.cell.DecompositionMismatch
				if c.cell.Regret.Defined {
					regrets.add(c.cell.Regret.N)
				}
			}
			for _, seg := range b.segments() {
				lowest, highest = min(lowest, seg.lo), max(highest, seg.hi)
			}
			panels[d].bars = append(panels[d].bars, b)
		}
	}
	if !losses.seen {
		return drawing{}, false
	}
	floor := math.Floor(lowest*4) / 4
	ceil := math.Ceil(highest*4) / 4
	ceil += 0.06 * (ceil - floor) // room above the R̃ = 1 line

	lay := layoutGroups(solvers, 52)
	var rows [][]*plot.Plot
	for d, ds := range datasets {
		panels[d].floor, panels[d].ceil = floor, ceil
		p := groupPlot(ds, lay.labels, "loss / V_oracle", lay.rotate)
		refLow := draw.LineStyle{Color: ruleGrey, Width: vg.Points(0.8)}
		refHigh := draw.LineStyle{Color: ruleGrey, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(4), vg.Points(2)}}
		p.Add(hRule{y: 1, style: refHigh}, panels[d], hRule{y: 0, style: refLow})
		p.Y.Min, p.Y.Max = floor, ceil
		rows = append(rows, []*plot.Plot{p})
	}

	scope := report.ScopePhrase(sv.Strategy, sv.Variant)
	title := fmt.Sprintf("Where value is lost at α = %s — %s", report.FormatAlpha(alpha), scope)
	caption := sentence(
		fmt.Sprintf("Where value is lost at budget fraction α = %s, %s: the regret decomposition of SPEC §5, each loss divided by V_oracle.", report.FormatAlpha(alpha), scope),
		fmt.Sprintf("One panel per dataset, one stacked bar per solver: the mean selection loss (blue, bottom; (V_oracle − V_S) / V_oracle: the planned set S could not reach the oracle), the mean order loss (orange; (V_S − V_U) / V_oracle: the order and the early stop lost value the set could have had) and the mean enforcement loss (purple; (V_U − V_E) / V_oracle: what binding the plan's own allocations cost), over the cell's pools with a decomposition (%s pools per bar).", losses),
		"A positive enforcement loss stacks on top; a negative one (the enforced allocations gained value) is drawn below zero.",
		fmt.Sprintf("The solid line with a circle marks the mean R̃_U and the dashed line with a triangle the mean R̃_E, over the cell's pools with a scored plan and V_oracle > 0 (%s pools per mark); pool by pool selection + order = R̃_U and selection + order + enforcement = R̃_E, so the top of the bar above zero meets the R̃_U mark, or the R̃_E mark when enforcement is positive.", regrets),
		"Lower is better: 0 loses nothing (grey line at 0), 1 loses all the oracle's value (dashed grey line).",
		undecomposedNote(undecomposed, regretPools, lacking),
		mismatchNote(mismatched),
		"A bar whose losses are all 0, or too close to 0 to show, is drawn as an outlined tick on the zero line labelled with the sum of its losses.",
		"n/a: no pool with a decomposition (V_oracle = 0 or no scored plan); an empty slot: no records.",
	)
	legend := []legendItem{
		{"selection loss", swatchThumb{selectionColour}},
		{"order loss", swatchThumb{orderColour}},
		{"enforcement loss", swatchThumb{enforcementColour}},
		// A combining tilde (R̃) does not render well inside the image.
		{"normalized regret, regime U", regretUMark()},
		{"normalized regret, regime E", regretEMark()},
	}
	return drawing{
		fig: Figure{
			Name:  fileStem(append(append([]string{string(KindLosses)}, stem(sv)...), "a"+report.FormatAlpha(alpha))...),
			Title: title, Caption: caption, Kind: KindLosses,
			Strategy: sv.Strategy, Variant: sv.Variant, Alpha: alpha,
		},
		sheet: sheet{width: max(lay.width, titleStyle().Width(title)+2*sheetMargin), title: title, legend: legend, blocks: []block{panelBlock(rows, lay.rowHeight)}},
	}, true
}

// undecomposedNote says whether every pool behind the R̃ marks has a
// decomposition and, when not, which cells lack how many.
func undecomposedNote(undecomposed, pools int, lacking []string) string {
	if undecomposed == 0 {
		return "Every pool behind the marks has a decomposition."
	}
	return fmt.Sprintf("Pools without a decomposition (records stored before records carried it), which the bars leave out and the marks do not: %d of the %d behind the marks — %s.",
		undecomposed, pools, strings.Join(lacking, "; "))
}

// mismatchNote warns of records whose stored losses break the identities.
func mismatchNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d records store losses that break selection + order = R̃_U or selection + order + enforcement = R̃_E beyond 1e-12: stale or inconsistent records.", n)
}
