package figures

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Sheet geometry, in points.
const (
	sheetMargin   = 10
	legendGap     = 4 // below the title, between legend rows and blocks
	legendThumbW  = 16
	legendItemGap = 14
	legendRowH    = 15
)

// sheet is the page of one figure: a bold title, an optional legend row
// (wrapped to the width), then blocks stacked from top to bottom, all as
// wide as the sheet.
type sheet struct {
	width  vg.Length
	title  string
	legend []legendItem
	blocks []block
}

// block is one horizontal band of a sheet, drawn into its canvas.
type block struct {
	height vg.Length
	draw   func(c draw.Canvas)
}

// legendItem is one entry of a legend row: a thumbnail and its label.
type legendItem struct {
	label string
	thumb plot.Thumbnailer
}

func titleStyle() text.Style { return textStyle(sizeTitle, true, draw.XCenter, draw.YTop) }

func legendStyle() text.Style { return textStyle(sizeLabel, false, draw.XLeft, draw.YCenter) }

// legendRows splits the legend into rows that fit the sheet's inner width.
func (s sheet) legendRows() [][]legendItem {
	var rows [][]legendItem
	inner := s.width - 2*sheetMargin
	var x vg.Length
	for _, it := range s.legend {
		w := legendThumbW + 4 + legendStyle().Width(it.label)
		if len(rows) == 0 || (x > 0 && x+w > inner) {
			rows = append(rows, nil)
			x = 0
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], it)
		x += w + legendItemGap
	}
	return rows
}

// headHeight is the height of the title and legend rows.
func (s sheet) headHeight() vg.Length {
	h := vg.Length(sheetMargin)
	if s.title != "" {
		h += titleStyle().Height(s.title) + legendGap
	}
	if n := len(s.legendRows()); n > 0 {
		h += vg.Length(n)*legendRowH + legendGap
	}
	return h
}

// size is the sheet's width and height.
func (s sheet) size() (vg.Length, vg.Length) {
	h := s.headHeight() + sheetMargin
	for _, b := range s.blocks {
		h += b.height
	}
	return s.width, h
}

// draw draws the sheet onto c, which must have the sheet's size.
func (s sheet) draw(c draw.Canvas) {
	c.SetColor(white)
	c.Fill(c.Rectangle.Path())
	y := c.Max.Y - sheetMargin
	if s.title != "" {
		c.FillText(titleStyle(), vg.Point{X: c.Center().X, Y: y}, s.title)
		y -= titleStyle().Height(s.title) + legendGap
	}
	rows := s.legendRows()
	for _, row := range rows {
		x := c.Min.X + sheetMargin
		for _, it := range row {
			thumb := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
				Min: vg.Point{X: x, Y: y - legendRowH + 2},
				Max: vg.Point{X: x + legendThumbW, Y: y - 2},
			}}
			it.thumb.Thumbnail(&thumb)
			c.FillText(legendStyle(), vg.Point{X: x + legendThumbW + 4, Y: y - legendRowH/2}, it.label)
			x += legendThumbW + 4 + legendStyle().Width(it.label) + legendItemGap
		}
		y -= legendRowH
	}
	if len(rows) > 0 {
		y -= legendGap
	}
	for _, b := range s.blocks {
		b.draw(draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: c.Min.X + sheetMargin, Y: y - b.height},
			Max: vg.Point{X: c.Max.X - sheetMargin, Y: y},
		}})
		y -= b.height
	}
}

// panelBlock lays plots out as a grid of panels whose data areas line up
// (plot.Align), each row rowHeight high.
func panelBlock(plots [][]*plot.Plot, rowHeight vg.Length) block {
	cols := 0
	for _, row := range plots {
		cols = max(cols, len(row))
	}
	grid := make([][]*plot.Plot, len(plots))
	for i, row := range plots {
		grid[i] = make([]*plot.Plot, cols)
		copy(grid[i], row)
	}
	return block{
		height: vg.Length(len(plots)) * rowHeight,
		draw: func(c draw.Canvas) {
			tiles := draw.Tiles{Rows: len(grid), Cols: cols, PadX: vg.Points(14), PadY: vg.Points(10)}
			canvases := plot.Align(grid, tiles, c)
			for i, row := range grid {
				for j, p := range row {
					if p != nil {
						p.Draw(canvases[i][j])
					}
				}
			}
		},
	}
}
