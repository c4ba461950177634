package figures

import (
	"image/color"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// barThumb is the legend thumbnail of a solid or hatched bar.
type barThumb struct {
	colour  color.Color
	hatched bool
}

// Thumbnail implements plot.Thumbnailer.
func (b barThumb) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	r.Min.X += 3
	r.Max.X -= 3
	fillBar(c, r, b.colour, b.hatched)
}

// lineThumb is the legend thumbnail of a line style.
type lineThumb draw.LineStyle

// Thumbnail implements plot.Thumbnailer.
func (l lineThumb) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(draw.LineStyle(l), c.Min.X, y, c.Max.X, y)
}

// whiskerThumb is the legend thumbnail of an interval whisker.
type whiskerThumb struct{}

// Thumbnail implements plot.Thumbnailer.
func (whiskerThumb) Thumbnail(c *draw.Canvas) {
	drawWhisker(c, c.Center().X, c.Min.Y, c.Max.Y, vg.Points(2.5))
}

// glyphThumb is the legend thumbnail of a marker.
type glyphThumb draw.GlyphStyle

// Thumbnail implements plot.Thumbnailer.
func (g glyphThumb) Thumbnail(c *draw.Canvas) {
	c.DrawGlyphNoClip(draw.GlyphStyle(g), c.Center())
}

// swatchThumb is the legend thumbnail of a filled square.
type swatchThumb struct{ fill color.Color }

// Thumbnail implements plot.Thumbnailer.
func (s swatchThumb) Thumbnail(c *draw.Canvas) {
	h := c.Max.Y - c.Min.Y
	x := c.Center().X - h/2
	r := vg.Rectangle{Min: vg.Point{X: x, Y: c.Min.Y}, Max: vg.Point{X: x + h, Y: c.Max.Y}}
	c.SetColor(s.fill)
	c.Fill(r.Path())
	c.SetLineStyle(draw.LineStyle{Color: ruleGrey, Width: vg.Points(0.4)})
	c.Stroke(r.Path())
}
