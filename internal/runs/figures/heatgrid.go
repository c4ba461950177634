package figures

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Heat-grid geometry, in points.
const (
	heatRowH    = 15
	heatCellPad = 8
)

// heatCell is one cell of a heat grid: the text printed in it and its
// fill; a nil fill is an empty cell (no record), drawn blank.
type heatCell struct {
	text string
	fill color.Color
}

// colGroup is a run of span consecutive columns under one heading (an α
// block, a dataset).
type colGroup struct {
	label string
	span  int
}

// heatGrid is a plot.Plotter drawing a table of coloured cells with their
// values printed, column labels above the cells and, when groups is set,
// group headings above those, groups separated by bold rules. Row labels
// are the plot's Y tick labels (see heatPlot). In data coordinates column
// j spans x ∈ [j, j+1] and row i (from the top) y ∈ [n−i−1, n−i], n the
// number of rows; the header rows lie above y = n.
type heatGrid struct {
	rows   []string
	cols   []string
	groups []colGroup
	cells  [][]heatCell // [row][column]
}

// headerRows is the number of header rows above the cells.
func (h heatGrid) headerRows() int {
	if len(h.groups) > 0 {
		return 2
	}
	return 1
}

// DataRange implements plot.DataRanger.
func (h heatGrid) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0, float64(len(h.cols)), 0, float64(len(h.rows) + h.headerRows())
}

// cellStyle is the style of the values printed in cells and of the row
// labels, so that a value and its row label share a baseline.
func cellStyle() text.Style { return textStyle(sizeTick, false, draw.XCenter, draw.YCenter) }

// Plot implements plot.Plotter.
func (h heatGrid) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	n := float64(len(h.rows))
	border := draw.LineStyle{Color: white, Width: vg.Points(0.8)}
	for i, row := range h.cells {
		y0, y1 := n-float64(i)-1, n-float64(i)
		for j, cell := range row {
			if cell.fill == nil {
				continue
			}
			r := vg.Rectangle{Min: vg.Point{X: trX(float64(j)), Y: trY(y0)}, Max: vg.Point{X: trX(float64(j + 1)), Y: trY(y1)}}
			c.SetColor(cell.fill)
			c.Fill(r.Path())
			c.SetLineStyle(border)
			c.Stroke(r.Path())
			sty := cellStyle()
			sty.Color = inkOn(cell.fill)
			// Raised by the descent, as gonum raises the row labels: the
			// value shares its row label's baseline and sits visually
			// centred (digits have no descenders).
			c.FillText(sty, vg.Point{X: trX(float64(j) + 0.5), Y: trY(y0+0.5) + sty.FontExtents().Descent}, cell.text)
		}
	}
	outline := draw.LineStyle{Color: ruleGrey, Width: vg.Points(0.5)}
	c.StrokeLines(outline, []vg.Point{
		{X: trX(0), Y: trY(0)}, {X: trX(float64(len(h.cols))), Y: trY(0)},
		{X: trX(float64(len(h.cols))), Y: trY(n)}, {X: trX(0), Y: trY(n)}, {X: trX(0), Y: trY(0)},
	})
	colLabel := textStyle(sizeTick, false, draw.XCenter, draw.YCenter)
	for j, label := range h.cols {
		c.FillText(colLabel, vg.Point{X: trX(float64(j) + 0.5), Y: trY(n+0.5) + colLabel.FontExtents().Descent}, label)
	}
	if len(h.groups) == 0 {
		return
	}
	groupLabel := textStyle(sizeLabel, true, draw.XCenter, draw.YCenter)
	rule := draw.LineStyle{Color: black, Width: vg.Points(1.6)}
	start := 0
	for k, g := range h.groups {
		mid := float64(start) + float64(g.span)/2
		c.FillText(groupLabel, vg.Point{X: trX(mid), Y: trY(n+1.5) + groupLabel.FontExtents().Descent}, g.label)
		if k > 0 {
			c.StrokeLine2(rule, trX(float64(start)), trY(0), trX(float64(start)), trY(n+2))
		}
		start += g.span
	}
}

// heatPlot puts grid into a plot whose Y tick labels are its row labels.
func heatPlot(grid heatGrid) *plot.Plot {
	p := newPlot("")
	p.Add(grid)
	p.HideX()
	p.X.Padding = 0
	hideAxisLine(&p.Y)
	p.Y.Tick.Label = cellStyle()
	p.Y.Tick.Label.XAlign = draw.XRight
	n := len(grid.rows)
	ticks := make(plot.ConstantTicks, n)
	for i, label := range grid.rows {
		ticks[i] = plot.Tick{Value: float64(n-i) - 0.5, Label: label}
	}
	p.Y.Tick.Marker = ticks
	return p
}

// heatBlock sizes a sheet block for grid: columns wide enough for every
// printed value and label, rows heatRowH high. It returns the block and
// the width it needs.
func heatBlock(grid heatGrid) (block, vg.Length) {
	sty := cellStyle()
	cellW := maxWidth(sty, grid.cols)
	for _, row := range grid.cells {
		for _, cell := range row {
			cellW = max(cellW, sty.Width(cell.text))
		}
	}
	cellW += heatCellPad
	for _, g := range grid.groups {
		need := textStyle(sizeLabel, true, draw.XCenter, draw.YCenter).Width(g.label) + heatCellPad
		cellW = max(cellW, need/vg.Length(g.span))
	}
	labelW := maxWidth(sty, grid.rows) + sty.Width(" ")
	width := labelW + vg.Length(len(grid.cols))*cellW + 4
	height := vg.Length(len(grid.rows)+grid.headerRows()) * heatRowH
	p := heatPlot(grid)
	return block{height: height, draw: func(c draw.Canvas) {
		c.Max.X = min(c.Max.X, c.Min.X+width)
		p.Draw(c)
	}}, width
}
