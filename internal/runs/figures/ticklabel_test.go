package figures

import (
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/triage-eval/triage/internal/runs/report"
)

// TestTickLabelClearsWhisker places the label of a short bar's tick in a
// panel 100 points tall, the zero line at 50: beyond the far end of the
// tick and its whisker on the tick's side, else beyond the other end, else
// beside the bar; in every case its box covers neither the whisker (caps
// included) nor the tick.
func TestTickLabelClearsWhisker(t *testing.T) {
	area := vg.Rectangle{Max: vg.Point{X: 200, Y: 100}}
	const x, halfWidth = vg.Length(100), vg.Length(18)
	capHalf := 2 * halfWidth / 3
	below, above := vg.Length(50)-minBarHeight, vg.Length(50)+minBarHeight
	cases := []struct {
		name       string
		lo, hi     vg.Length // the tick
		down       bool
		wlo, whi   vg.Length // the whisker; wlo = whi = 0 for none
		want       string    // "below", "above" or "beside" the tick and whisker
		wantAnchor vg.Length // the label's y anchor (below, above) or x anchor (beside)
	}{
		{name: "no whisker, below 0", lo: below, hi: 50, down: true, want: "below", wantAnchor: below - labelGap},
		{name: "no whisker, at 0", lo: 50, hi: above, want: "above", wantAnchor: above + labelGap},
		{name: "whisker past the tick below", lo: below, hi: 50, down: true, wlo: 30, whi: 60, want: "below", wantAnchor: 30 - labelGap},
		{name: "whisker past the tick above", lo: 50, hi: above, wlo: 45, whi: 80, want: "above", wantAnchor: 80 + labelGap},
		{name: "whisker on the other side", lo: below, hi: 50, down: true, wlo: 49, whi: 70, want: "below", wantAnchor: below - labelGap},
		{name: "whisker down to the floor", lo: below, hi: 50, down: true, wlo: 0, whi: 60, want: "above", wantAnchor: 60 + labelGap},
		{name: "whisker up to the ceiling", lo: 50, hi: above, wlo: 40, whi: 100, want: "below", wantAnchor: 40 - labelGap},
		{name: "whisker across the panel", lo: below, hi: 50, down: true, wlo: 2, whi: 97, want: "beside", wantAnchor: x + halfWidth + labelGap},
	}
	for _, tc := range cases {
		m := tickMark{x: x, lo: tc.lo, hi: tc.hi, down: tc.down, reachLo: tc.lo, reachHi: tc.hi, halfWidth: halfWidth}
		whisker := vg.Rectangle{Min: vg.Point{X: x - capHalf, Y: tc.wlo}, Max: vg.Point{X: x + capHalf, Y: tc.whi}}
		if tc.wlo != tc.whi {
			m.reachLo, m.reachHi = min(tc.lo, tc.wlo), max(tc.hi, tc.whi)
		}
		sty, pt := m.tickLabel(area, "-0.012")
		box := labelBox(sty, pt, "-0.012")
		tick := vg.Rectangle{Min: vg.Point{X: x - halfWidth, Y: tc.lo}, Max: vg.Point{X: x + halfWidth, Y: tc.hi}}
		if tc.wlo != tc.whi && overlaps(box, whisker) {
			t.Errorf("%s: the label's box %v covers the whisker %v", tc.name, box, whisker)
		}
		if overlaps(box, tick) {
			t.Errorf("%s: the label's box %v covers the tick %v", tc.name, box, tick)
		}
		var got string
		var anchor vg.Length
		switch {
		case box.Min.X >= x+halfWidth:
			got, anchor = "beside", pt.X
		case box.Max.Y <= tc.lo:
			got, anchor = "below", pt.Y
		case box.Min.Y >= tc.hi:
			got, anchor = "above", pt.Y
		}
		if got != tc.want || anchor != tc.wantAnchor {
			t.Errorf("%s: label %s at %v, want %s at %v", tc.name, got, anchor, tc.want, tc.wantAnchor)
		}
		if got != "beside" && (box.Min.Y < area.Min.Y || box.Max.Y > area.Max.Y) {
			t.Errorf("%s: the label's box %v leaves the panel %v", tc.name, box, area)
		}
	}
}

var (
	// labelBoxPath matches the white box boxedText draws and the text it
	// draws on it.
	labelBoxPath = regexp.MustCompile(`<path d="M([-\d.]+),([-\d.]+)L([-\d.]+),([-\d.]+)L([-\d.]+),([-\d.]+)L([-\d.]+),([-\d.]+)Z" style="fill:#FFFFFF" />\s*<text[^>]*>([^<]*)</text>`)
	// whiskerPath matches one line of a whisker (drawWhisker).
	whiskerPath = regexp.MustCompile(`<path d="M([-\d.]+),([-\d.]+)L([-\d.]+),([-\d.]+)" style="fill:none;stroke:#000000;stroke-width:0.7" />`)
)

// svgRectangle is the rectangle with opposite corners (x0, y0) and (x1, y1).
func svgRectangle(t *testing.T, x0, y0, x1, y1 string) vg.Rectangle {
	a, b, c, d := parseFloat(t, x0), parseFloat(t, y0), parseFloat(t, x1), parseFloat(t, y1)
	return vg.Rectangle{
		Min: vg.Point{X: vg.Length(min(a, c)), Y: vg.Length(min(b, d))},
		Max: vg.Point{X: vg.Length(max(a, c)), Y: vg.Length(max(b, d))},
	}
}

// TestTickLabelClearsWhiskerInSVG draws two solvers whose mean η is a
// hair off 0 (-0.010 and 0.010, bars shorter than minBarHeight) with wide
// intervals over their two pools, the whiskers reaching well past the
// ticks on both sides, and checks in the SVG that no line of any whisker
// crosses the white box of either label: the reviewer saw a "-0.012"
// box cover the lower whisker cap.
func TestTickLabelClearsWhiskerInSVG(t *testing.T) {
	var recs []report.ScoreRecord
	for _, s := range []struct {
		model  string
		values [2]float64 // V per pool; oracle 4, random 2: η = (V − 2)/2
	}{{"m", [2]float64{2.6, 1.36}}, {"n", [2]float64{1.4, 2.64}}} {
		for pool, v := range s.values {
			for _, regime := range []string{"U", "E"} {
				recs = append(recs, scored(report.ScoreRecord{
					Model: s.model, Mode: "standard", Dataset: "aime", Pool: pool, Alpha: 0.5,
					Variant: "default", Strategy: "llm", Regime: regime,
					Value: v, Oracle: 4, Random: 2, PoolSize: 10,
				}))
			}
		}
	}
	figs, err := Draw(report.Build(recs, nil), nil, Options{DPI: 18})
	if err != nil {
		t.Fatal(err)
	}
	var svg string
	for _, f := range figs {
		if f.Kind == KindEfficiency {
			svg = string(f.SVG)
		}
	}
	if svg == "" {
		t.Fatal("no efficiency figure")
	}
	var whiskers []vg.Rectangle
	for _, m := range whiskerPath.FindAllStringSubmatch(svg, -1) {
		whiskers = append(whiskers, svgRectangle(t, m[1], m[2], m[3], m[4]))
	}
	labels := map[string]int{}
	for _, m := range labelBoxPath.FindAllStringSubmatch(svg, -1) {
		text := strings.TrimSpace(m[9])
		if text != "-0.010" && text != "0.010" {
			continue
		}
		labels[text]++
		box := svgRectangle(t, m[1], m[2], m[5], m[6])
		for _, w := range whiskers {
			if overlaps(box, w) {
				t.Errorf("the box of label %q (%v) covers a whisker line (%v)", text, box, w)
			}
		}
	}
	if labels["-0.010"] != 2 || labels["0.010"] != 2 {
		t.Errorf("tick labels %v, want -0.010 and 0.010 twice each (regimes U and E)", labels)
	}
	if len(whiskers) != 5*3 {
		t.Errorf("%d whisker lines, want 15 (4 whiskers and the legend's, 3 lines each)", len(whiskers))
	}
}
