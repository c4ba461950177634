package figures

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// colourStop is one anchor of a colour scale.
type colourStop struct {
	at     float64
	colour hexColor
}

// colourScale maps numbers to colours by linear interpolation in sRGB
// between its stops (sorted by at); values outside are capped at the end
// stops.
type colourScale struct{ stops []colourStop }

// sequentialScale is the white→teal scale of rates in [0, 1] (base
// accuracy, budget-aware rates).
func sequentialScale() colourScale {
	return colourScale{[]colourStop{{0, white}, {1, teal}}}
}

// divergingScale is the coral→white→navy scale of η, capped at [−1, 1]:
// coral worse than random, white random, navy oracle.
func divergingScale() colourScale {
	return colourScale{[]colourStop{{-1, coral}, {0, white}, {1, navy}}}
}

// min and max are the ends of the scale.
func (s colourScale) min() float64 { return s.stops[0].at }
func (s colourScale) max() float64 { return s.stops[len(s.stops)-1].at }

// capped reports whether v lies outside the scale's range.
func (s colourScale) capped(v float64) bool { return v < s.min() || v > s.max() }

// at returns the colour of v.
func (s colourScale) at(v float64) color.Color {
	v = min(max(v, s.min()), s.max())
	for i := 1; i < len(s.stops); i++ {
		a, b := s.stops[i-1], s.stops[i]
		if v <= b.at {
			t := (v - a.at) / (b.at - a.at)
			return mix(a.colour, b.colour, t)
		}
	}
	return s.stops[len(s.stops)-1].colour
}

// mix interpolates between a and b, t ∈ [0, 1].
func mix(a, b hexColor, t float64) color.Color {
	ch := func(shift uint) uint8 {
		x, y := float64(a>>shift&0xFF), float64(b>>shift&0xFF)
		return uint8(x + (y-x)*t + 0.5)
	}
	return color.RGBA{R: ch(16), G: ch(8), B: ch(0), A: 0xFF}
}

// gradient is a plot.Plotter drawing a colour scale as a horizontal strip
// of thin vector rectangles (no embedded image), x from the scale's min to
// its max.
type gradient struct {
	scale colourScale
	steps int
}

// DataRange implements plot.DataRanger.
func (g gradient) DataRange() (xmin, xmax, ymin, ymax float64) {
	return g.scale.min(), g.scale.max(), 0, 1
}

// Plot implements plot.Plotter.
func (g gradient) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	lo, hi := g.scale.min(), g.scale.max()
	for i := range g.steps {
		x0 := lo + (hi-lo)*float64(i)/float64(g.steps)
		x1 := lo + (hi-lo)*float64(i+1)/float64(g.steps)
		r := vg.Rectangle{Min: vg.Point{X: trX(x0), Y: trY(0)}, Max: vg.Point{X: trX(x1) + 0.3, Y: trY(1)}}
		c.SetColor(g.scale.at((x0 + x1) / 2))
		c.Fill(r.Path())
	}
	c.SetLineStyle(draw.LineStyle{Color: ruleGrey, Width: vg.Points(0.4)})
	c.Stroke(vg.Rectangle{Min: vg.Point{X: trX(lo), Y: trY(0)}, Max: vg.Point{X: trX(hi), Y: trY(1)}}.Path())
}

// colourBarBlock is a sheet block with the colour bar of scale, labelled
// label, ticks at the given values.
func colourBarBlock(scale colourScale, label string, ticks []float64) block {
	p := newPlot("")
	p.Add(gradient{scale: scale, steps: 64})
	p.HideY()
	p.Y.Padding = 0
	p.X.Padding = 0
	p.X.Label.Text = label
	marks := make(plot.ConstantTicks, len(ticks))
	for i, t := range ticks {
		marks[i] = plot.Tick{Value: t, Label: fmt.Sprint(t)}
	}
	p.X.Tick.Marker = marks
	const width = 200
	return block{height: 48, draw: func(c draw.Canvas) {
		c = draw.Crop(c, 8, 0, 0, -14) // a gap above the bar
		c.Max.X = min(c.Max.X, c.Min.X+width)
		p.Draw(c)
	}}
}
