package figures

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/runs/report"
)

// Bar geometry in data units: group g spans [g − ½, g + ½].
const (
	barWidth    = 0.34 // each bar of a pair; n bars share 2·barWidth
	barOffset   = 0.18 // a pair's bar centre from the group centre
	accMarkHalf = 0.42 // half the accuracy mark's width
	hatchStep   = 3.0  // points between hatch lines
)

// minBarHeight is the shortest bar drawn, in points. A defined mean whose
// bar would be shorter — a mean of exactly 0 among them — is drawn as a
// tick this tall on the zero line (on the side of its sign) and labelled
// with its value, so that a measured 0 never reads as a missing bar; an
// undefined mean is marked "n/a" and gets no tick.
const minBarHeight = vg.Length(3)

// shortBarNote is the captions' sentence on minBarHeight's ticks.
const shortBarNote = "A mean too close to 0 to show as a bar (0 itself included) is drawn as a flat tick on the zero line and labelled with its value."

// barSlots returns the width of each of n bars side by side in a group and
// the distance between their centres: a pair is barWidth wide, barOffset
// either side of the group centre, and n bars share the pair's span.
func barSlots(n int) (width, spacing float64) {
	return barWidth * 2 / float64(n), 2 * barOffset * 2 / float64(n)
}

// barGroup is one solver's bars side by side (figure 1: regime U solid,
// regime E hatched; figure 7: one bar per strategy), with the solver's base
// accuracy (undefined: no mark). present is false for a solver without any
// cell in the panel (an empty slot).
type barGroup struct {
	bars     []barSpec
	accuracy metrics.Mean
	present  bool
}

// barSpec is one bar of a group: its value, colour and fill.
type barSpec struct {
	barValue
	colour  color.Color
	hatched bool
}

// barValue is one bar: a mean and its interval.
type barValue struct {
	mean metrics.Mean
	ci   metrics.Interval
}

// barPanel is a plot.Plotter drawing one panel's groups, x = group index.
// Bars reach from 0 to the mean; a mean below floor is cut at floor and
// its value printed there; a mean whose bar would be shorter than
// minBarHeight is a labelled tick (barEnds). An undefined mean is marked
// "n/a".
type barPanel struct {
	groups      []barGroup
	floor, ceil float64
}

// DataRange implements plot.DataRanger.
func (b barPanel) DataRange() (xmin, xmax, ymin, ymax float64) {
	return -0.5, float64(len(b.groups)) - 0.5, b.floor, b.ceil
}

// Plot implements plot.Plotter.
func (b barPanel) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	clamp := func(y float64) float64 { return min(max(y, b.floor), b.ceil) }
	note := textStyle(6, false, draw.XCenter, draw.YBottom)
	var cut []cutLabel
	for g, grp := range b.groups {
		if !grp.present {
			continue
		}
		x := float64(g)
		width, spacing := barSlots(len(grp.bars))
		for i, bv := range grp.bars {
			centre := x + spacing*(float64(i)-float64(len(grp.bars)-1)/2)
			left, right := trX(centre-width/2), trX(centre+width/2)
			if !bv.mean.Defined {
				c.FillText(note, vg.Point{X: trX(centre), Y: trY(clamp(0)) + 1.5}, "n/a")
				continue
			}
			v := bv.mean.Value
			base := trY(clamp(0))
			lo, hi, short := barEnds(base, trY(clamp(v)))
			fillBar(&c, vg.Rectangle{Min: vg.Point{X: left, Y: lo}, Max: vg.Point{X: right, Y: hi}}, bv.colour, bv.hatched)
			tick := tickMark{x: trX(centre), lo: lo, hi: hi, reachLo: lo, reachHi: hi, halfWidth: (right - left) / 2, down: lo < base}
			if bv.ci.Defined {
				wlo, whi := trY(clamp(bv.ci.Lo)), trY(clamp(bv.ci.Hi))
				drawWhisker(&c, trX(centre), wlo, whi, (right-left)/3)
				tick.reachLo, tick.reachHi = min(lo, wlo, whi), max(hi, wlo, whi)
			}
			if short {
				labelTick(&c, tick, v)
			}
			if v < b.floor {
				cut = append(cut, cutLabel{vg.Point{X: trX(centre), Y: trY(b.floor) + 3}, report.FormatNumber(v)})
			}
		}
		if grp.accuracy.Defined {
			c.StrokeLine2(accuracyStyle(), trX(x-accMarkHalf), trY(grp.accuracy.Value), trX(x+accMarkHalf), trY(grp.accuracy.Value))
		}
	}
	// After every bar and whisker, so that none is drawn over them.
	for _, l := range placeCutLabels(note, cut) {
		boxedText(&c, note, l.at, l.txt)
	}
}

// cutLabel is the value printed on a bar cut at the floor, at the bar's
// centre just above the cut.
type cutLabel struct {
	at  vg.Point
	txt string
}

// placeCutLabels returns labels (in bar order, left to right) each raised
// above the earlier ones whose boxes it would overlap: the labels of
// adjacent cut bars are wider than the bars.
func placeCutLabels(sty text.Style, labels []cutLabel) []cutLabel {
	out := make([]cutLabel, 0, len(labels))
	for _, l := range labels {
		for moved := true; moved; {
			moved = false
			box := labelBox(sty, l.at, l.txt)
			for _, p := range out {
				if other := labelBox(sty, p.at, p.txt); overlaps(box, other) {
					l.at.Y = other.Max.Y + (l.at.Y - box.Min.Y) + 1
					moved = true
					break
				}
			}
		}
		out = append(out, l)
	}
	return out
}

// overlaps reports whether two rectangles share more than an edge.
func overlaps(a, b vg.Rectangle) bool {
	return a.Min.X < b.Max.X && b.Min.X < a.Max.X && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y
}

// barEnds returns the bottom and top, in points, of a bar from the zero
// line base to y. A bar shorter than minBarHeight (short) becomes a tick
// minBarHeight tall on base: above it, or below when y is below it.
func barEnds(base, y vg.Length) (lo, hi vg.Length, short bool) {
	switch {
	case y-base >= minBarHeight || base-y >= minBarHeight:
		return min(base, y), max(base, y), false
	case y < base:
		return base - minBarHeight, base, true
	}
	return base, base + minBarHeight, true
}

// labelGap is the room, in points, between a tick's label and what it
// labels or keeps clear of.
const labelGap = vg.Length(3)

// tickMark is a short bar's tick (barEnds) as its label must see it: x
// its centre, [lo, hi] the tick, down whether it hangs below the zero
// line, [reachLo, reachHi] what the tick and the bar's whisker span
// together (the tick alone without a whisker), halfWidth half the bar's
// width (a whisker's caps are narrower).
type tickMark struct {
	x, lo, hi        vg.Length
	down             bool
	reachLo, reachHi vg.Length
	halfWidth        vg.Length
}

// labelTick prints v on a white box by the tick m, where tickLabel puts
// it: clear of the tick and of its whisker.
func labelTick(c *draw.Canvas, m tickMark, v float64) {
	txt := report.FormatNumber(v)
	sty, pt := m.tickLabel(c.Rectangle, txt)
	boxedText(c, sty, pt, txt)
}

// tickLabel returns the style and point at which labelTick prints txt
// within area: beyond the far end of the tick and its whisker on the side
// of the tick (below a tick that hangs below the zero line, above one that
// stands on it), so that the label's box never covers a whisker cap; when
// that leaves the area, beyond the other end; when neither fits, beside
// the bar on its right, level with the tick.
func (m tickMark) tickLabel(area vg.Rectangle, txt string) (text.Style, vg.Point) {
	below := textStyle(6, false, draw.XCenter, draw.YTop)
	above := textStyle(6, false, draw.XCenter, draw.YBottom)
	type place struct {
		sty text.Style
		pt  vg.Point
	}
	places := []place{
		{below, vg.Point{X: m.x, Y: m.reachLo - labelGap}},
		{above, vg.Point{X: m.x, Y: m.reachHi + labelGap}},
	}
	if !m.down {
		places[0], places[1] = places[1], places[0]
	}
	for _, p := range places {
		if box := labelBox(p.sty, p.pt, txt); box.Min.Y >= area.Min.Y && box.Max.Y <= area.Max.Y {
			return p.sty, p.pt
		}
	}
	return textStyle(6, false, draw.XLeft, draw.YCenter), vg.Point{X: m.x + m.halfWidth + labelGap, Y: (m.lo + m.hi) / 2}
}

// boxedText prints txt at pt on a white box (labelBox), so that it reads
// over bars and hatching.
func boxedText(c *draw.Canvas, sty text.Style, pt vg.Point, txt string) {
	c.SetColor(white)
	c.Fill(labelBox(sty, pt, txt).Path())
	c.FillText(sty, pt, txt)
}

// labelBox is the white box boxedText draws behind txt at pt: the text's
// extent and a margin.
func labelBox(sty text.Style, pt vg.Point, txt string) vg.Rectangle {
	r := sty.Rectangle(txt)
	r.Min, r.Max = r.Min.Add(pt), r.Max.Add(pt)
	r.Min.X, r.Max.X = r.Min.X-1.5, r.Max.X+1.5
	r.Min.Y, r.Max.Y = r.Min.Y-1, r.Max.Y+0.5
	return r
}

// accuracyStyle is the red dashed base-accuracy mark.
func accuracyStyle() draw.LineStyle {
	return draw.LineStyle{Color: accuracyRed, Width: vg.Points(1.4), Dashes: []vg.Length{vg.Points(3), vg.Points(2)}}
}

// fillBar draws a bar in colour: filled when solid, else outlined with
// diagonal hatching on white.
func fillBar(c *draw.Canvas, r vg.Rectangle, colour color.Color, hatched bool) {
	if r.Max.Y-r.Min.Y <= 0 || r.Max.X-r.Min.X <= 0 {
		return
	}
	if !hatched {
		c.SetColor(colour)
		c.Fill(r.Path())
		return
	}
	c.SetColor(white)
	c.Fill(r.Path())
	line := draw.LineStyle{Color: colour, Width: vg.Points(0.8)}
	for _, seg := range hatchLines(r, hatchStep) {
		c.StrokeLine2(line, seg[0].X, seg[0].Y, seg[1].X, seg[1].Y)
	}
	c.SetLineStyle(line)
	c.Stroke(r.Path())
}

// hatchLines returns the 45° lines, step apart, that cross r, each cut to
// r: y − r.Min.Y = (x − r.Min.X) + k·step for every k that meets r.
func hatchLines(r vg.Rectangle, step vg.Length) [][2]vg.Point {
	w, h := r.Max.X-r.Min.X, r.Max.Y-r.Min.Y
	var out [][2]vg.Point
	for b := -w + step/2; b < h; b += step {
		x0, x1 := max(0, -b), min(w, h-b)
		if x1 <= x0 {
			continue
		}
		out = append(out, [2]vg.Point{
			{X: r.Min.X + x0, Y: r.Min.Y + x0 + b},
			{X: r.Min.X + x1, Y: r.Min.Y + x1 + b},
		})
	}
	return out
}

// drawWhisker draws a vertical interval from y0 to y1 at x with caps of
// half-width capHalf.
func drawWhisker(c *draw.Canvas, x, y0, y1, capHalf vg.Length) {
	sty := draw.LineStyle{Color: black, Width: vg.Points(0.7)}
	c.StrokeLine2(sty, x, y0, x, y1)
	c.StrokeLine2(sty, x-capHalf, y0, x+capHalf, y0)
	c.StrokeLine2(sty, x-capHalf, y1, x+capHalf, y1)
}

// hRule is a plot.Plotter drawing a horizontal line across the panel at
// y: the figures' reference lines (η = 0, η = 1).
type hRule struct {
	y     float64
	style draw.LineStyle
}

// Plot implements plot.Plotter.
func (h hRule) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	c.StrokeLine2(h.style, c.Min.X, trY(h.y), c.Max.X, trY(h.y))
}
