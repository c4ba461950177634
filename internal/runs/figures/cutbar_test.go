package figures

import (
	"bytes"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/triage-eval/triage/internal/protocol/metrics"
)

// TestCutBarLabelOverItsWhisker: the value of a bar cut at the floor is
// printed after its whisker is drawn, so that a whisker reaching up
// through the label runs under the label's box instead of across its text.
func TestCutBarLabelOverItsWhisker(t *testing.T) {
	p := plot.New()
	p.Add(barPanel{floor: etaFloor, ceil: 1, groups: []barGroup{{present: true, bars: []barSpec{{
		barValue: barValue{mean: metrics.Mean{Value: -3, Defined: true}, ci: metrics.Interval{Lo: -4, Hi: -0.5, Defined: true}},
		colour:   black,
	}}}}})
	c := vgsvg.New(200, 200)
	p.Draw(draw.New(c))
	var out bytes.Buffer
	if _, err := c.WriteTo(&out); err != nil {
		t.Fatal(err)
	}
	svg := out.String()
	label := strings.Index(svg, ">-3.000</text>")
	if label < 0 {
		t.Fatalf("no label of the cut bar's value:\n%s", svg)
	}
	if whisker := strings.LastIndex(svg, "stroke:#000000;stroke-width:0.7"); whisker > label {
		t.Errorf("the whisker is drawn over the cut bar's label:\n%s", svg[label:])
	}
}

// TestCutLabelsOfAdjacentBarsDoNotOverlap: the labels of cut bars side by
// side (figure 7 has four bars a group, narrower than a label) are raised
// clear of each other; a label with room stays where it is.
func TestCutLabelsOfAdjacentBarsDoNotOverlap(t *testing.T) {
	sty := textStyle(6, false, draw.XCenter, draw.YBottom)
	var labels []cutLabel
	for i := range 4 {
		labels = append(labels, cutLabel{vg.Point{X: vg.Length(100 + 15*i), Y: 20}, "-3.000"})
	}
	labels = append(labels, cutLabel{vg.Point{X: 300, Y: 20}, "-2.500"})
	placed := placeCutLabels(sty, labels)
	for i, a := range placed {
		for _, b := range placed[i+1:] {
			if overlaps(labelBox(sty, a.at, a.txt), labelBox(sty, b.at, b.txt)) {
				t.Errorf("labels at %v and %v overlap", a.at, b.at)
			}
		}
	}
	if placed[0].at != labels[0].at || placed[4].at != labels[4].at {
		t.Errorf("a label with room was moved: %v, %v", placed[0].at, placed[4].at)
	}
}
