package figures

import (
	"math"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// starGlyph is a draw.GlyphDrawer of a five-pointed star, filled with the
// glyph colour and outlined in black: the ideal corner of figure 4.
type starGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (starGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	var path vg.Path
	for i, p := range starPoints(pt, sty.Radius) {
		if i == 0 {
			path.Move(p)
		} else {
			path.Line(p)
		}
	}
	path.Close()
	c.SetColor(sty.Color)
	c.Fill(path)
	c.SetLineStyle(draw.LineStyle{Color: black, Width: vg.Points(0.6)})
	c.Stroke(path)
}

// starPoints are the ten vertices of a star centred at pt with outer
// radius r, the first pointing up.
func starPoints(pt vg.Point, r vg.Length) []vg.Point {
	const inner = 0.4
	out := make([]vg.Point, 10)
	for i := range out {
		rad := float64(r)
		if i%2 == 1 {
			rad *= inner
		}
		a := math.Pi/2 + float64(i)*math.Pi/5
		out[i] = vg.Point{X: pt.X + vg.Length(rad*math.Cos(a)), Y: pt.Y + vg.Length(rad*math.Sin(a))}
	}
	return out
}
