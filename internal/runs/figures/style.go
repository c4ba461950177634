package figures

import (
	"image/color"
	"math"

	"golang.org/x/image/font"
	"gonum.org/v1/plot"
	plotfont "gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// hexColor is an opaque sRGB colour written 0xRRGGBB; as a constant it
// keeps the palette free of package state.
type hexColor uint32

// RGBA implements color.Color.
func (h hexColor) RGBA() (r, g, b, a uint32) {
	return uint32(h>>16&0xFF) * 0x101, uint32(h>>8&0xFF) * 0x101, uint32(h&0xFF) * 0x101, 0xFFFF
}

// Colours of the paper's figures.
const (
	// navy marks standard inference and the top of the diverging scale.
	navy hexColor = 0x1E3A5F
	// teal marks extended reasoning and the top of the sequential scale.
	teal hexColor = 0x168F84
	// coral is the bottom of the diverging scale (worse than random).
	coral hexColor = 0xE06C4F
	// accuracyRed is the base-accuracy mark.
	accuracyRed hexColor = 0xD62728
	// otherMode colours a mode that is neither standard nor extended.
	otherMode hexColor = 0x8C6D31
	// undefinedGrey fills a heat cell whose mean is undefined.
	undefinedGrey hexColor = 0xE6E6E6
	// conventionGrey fills a heat cell whose mean η is set by convention
	// alone (conventionMark), paler than undefinedGrey.
	conventionGrey hexColor = 0xF5F5F5
	// ruleGrey draws reference lines and thin separators.
	ruleGrey hexColor = 0x666666
	// starGold fills the ideal-corner star.
	starGold hexColor = 0xF2B705
	black    hexColor = 0x000000
	white    hexColor = 0xFFFFFF
)

// categorical colours the i-th solver of a trajectory plot (Okabe–Ito,
// without yellow, which does not show on white), cycling.
func categorical(i int) color.Color {
	colours := [...]hexColor{0x0072B2, 0xE69F00, 0x009E73, 0xCC79A7, 0x56B4E9, 0xD55E00, 0x000000}
	return colours[i%len(colours)]
}

// modeColor is the bar colour of a solver mode (SPEC §8: colour separates
// standard from extended mode).
func modeColor(mode string) color.Color {
	switch mode {
	case "standard":
		return navy
	case "extended":
		return teal
	}
	return otherMode
}

// Font sizes, in points.
const (
	sizeTitle = 11
	sizePanel = 9.5
	sizeLabel = 8.5
	sizeTick  = 7.5
)

// sansFont is the typeface of every text at the given size: Liberation
// Sans, embedded in gonum.
func sansFont(size vg.Length) plotfont.Font {
	return plotfont.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
}

// textStyle returns a text style in sans of the given size and weight.
func textStyle(size vg.Length, bold bool, xa text.XAlignment, ya text.YAlignment) text.Style {
	f := sansFont(size)
	if bold {
		f.Weight = font.WeightBold
	}
	return text.Style{Color: black, Font: f, XAlign: xa, YAlign: ya, Handler: plot.DefaultTextHandler}
}

// newPlot returns a gonum plot in the figures' style: sans fonts
// throughout, thin axes, the title as a bold panel heading.
func newPlot(title string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle = textStyle(sizePanel, true, draw.XCenter, draw.YTop)
	p.Title.Padding = vg.Points(4)
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle = textStyle(sizeLabel, false, draw.XCenter, draw.YBottom)
		ax.Label.Padding = vg.Points(3)
		ax.Tick.Label.Font = sansFont(sizeTick)
		ax.Tick.Length = vg.Points(3)
		ax.Padding = vg.Points(2)
	}
	p.Legend.TextStyle = textStyle(sizeTick, false, draw.XLeft, draw.YBottom)
	return p
}

// hideAxisLine keeps an axis' tick labels but draws neither its line nor
// its tick marks, and puts the data right against it.
func hideAxisLine(ax *plot.Axis) {
	ax.LineStyle.Width = 0
	ax.Tick.Length = 0
	ax.Padding = 0
}

// luminance is the relative luminance of c (WCAG), in [0, 1].
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		x := float64(v) / 0xFFFF
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// inkOn returns the text colour that reads best on background c: white on
// dark fills, black on light ones.
func inkOn(c color.Color) color.Color {
	if luminance(c) < 0.22 {
		return white
	}
	return black
}
