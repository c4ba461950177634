package figures

import (
	"bytes"
	"strings"
	"testing"

	"gonum.org/v1/plot"
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
