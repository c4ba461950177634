package figures

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/triage-eval/triage/internal/runs/report"
)

// svgRect is a rectangle path of an SVG written by vgsvg, with its style.
type svgRect struct {
	width, height float64
	style         string
}

var rectPath = regexp.MustCompile(`<path d="M([-\d.]+),([-\d.]+)L([-\d.]+),([-\d.]+)L([-\d.]+),([-\d.]+)L([-\d.]+),([-\d.]+)Z" style="([^"]*)"`)

// svgRects returns every rectangle path of doc.
func svgRects(t *testing.T, doc []byte) []svgRect {
	var out []svgRect
	for _, m := range rectPath.FindAllStringSubmatch(string(doc), -1) {
		x0, y0, x2, y2 := parseFloat(t, m[1]), parseFloat(t, m[2]), parseFloat(t, m[5]), parseFloat(t, m[6])
		out = append(out, svgRect{width: math.Abs(x2 - x0), height: math.Abs(y2 - y0), style: m[9]})
	}
	return out
}

// countTicks counts the rectangles minBarHeight tall, as wide as a bar
// (wider than a legend swatch), whose style contains style.
func countTicks(rects []svgRect, style string) int {
	n := 0
	for _, r := range rects {
		if math.Abs(r.height-float64(minBarHeight)) < 1e-6 && r.width > 12 && strings.Contains(r.style, style) {
			n++
		}
	}
	return n
}

// countTexts counts the <text> elements of doc that read s.
func countTexts(t *testing.T, doc []byte, s string) int {
	n := 0
	for _, x := range parseSVGTexts(t, doc) {
		if x.text == s {
			n++
		}
	}
	return n
}

// TestZeroIsDrawnApartFromMissing draws a run where one solver's plans
// reach the oracle in both regimes (R̃_U = R̃_E = 0, every loss 0) and
// another's are all unparseable (undefined means): each measured 0 must
// leave a tick and its label "0.000", and each undefined mean an "n/a"
// without a tick.
func TestZeroIsDrawnApartFromMissing(t *testing.T) {
	var recs []report.ScoreRecord
	for _, r := range poolRecords("m", "standard", "aime", "llm", "default", 0.5, 4, 4, 2) {
		recs = append(recs, planned(r, 4, 4, 4, r.Pool))
	}
	for _, r := range poolRecords("n", "standard", "aime", "llm", "default", 0.5, 2, 4, 2) {
		recs = append(recs, unparseable(r))
	}
	figs, err := Draw(report.Build(recs, nil), nil, Options{DPI: 18})
	if err != nil {
		t.Fatal(err)
	}
	byKind := map[Kind]Figure{}
	for _, f := range figs {
		byKind[f.Kind] = f
	}
	navy := "#" + strings.ToUpper(strconv.FormatUint(uint64(navy), 16))

	regret, ok := byKind[KindRegret]
	if !ok {
		t.Fatal("no regret figure")
	}
	rects := svgRects(t, regret.SVG)
	if n := countTicks(rects, "fill:"+navy); n != 1 {
		t.Errorf("regret figure: %d solid ticks for R̃_U = 0, want 1", n)
	}
	if n := countTicks(rects, "stroke:"+navy); n != 1 {
		t.Errorf("regret figure: %d outlined (hatched) ticks for R̃_E = 0, want 1", n)
	}
	if n := countTexts(t, regret.SVG, "0.000"); n != 2 {
		t.Errorf("regret figure: %d labels 0.000, want 2 (R̃_U and R̃_E of m)", n)
	}
	if n := countTexts(t, regret.SVG, "n/a"); n != 2 {
		t.Errorf("regret figure: %d n/a, want 2 (R̃_U and R̃_E of n)", n)
	}
	if !strings.Contains(regret.Caption, shortBarNote) {
		t.Errorf("regret caption does not explain the ticks:\n%s", regret.Caption)
	}

	losses, ok := byKind[KindLosses]
	if !ok {
		t.Fatal("no losses figure")
	}
	if n := countTicks(svgRects(t, losses.SVG), "stroke:#000000"); n != 1 {
		t.Errorf("losses figure: %d outlined ticks for a bar of zero losses, want 1", n)
	}
	if n := countTexts(t, losses.SVG, "0.000"); n != 1 {
		t.Errorf("losses figure: %d labels 0.000, want 1", n)
	}
	if n := countTexts(t, losses.SVG, "n/a"); n != 1 {
		t.Errorf("losses figure: %d n/a, want 1", n)
	}
}

// TestBarEnds checks the ticks of short bars: a bar at least minBarHeight
// long is drawn to scale; a shorter one, 0 included, becomes a tick
// minBarHeight tall on the side of its sign.
func TestBarEnds(t *testing.T) {
	const base = vg.Length(100)
	cases := []struct {
		name   string
		y      vg.Length
		lo, hi vg.Length
		short  bool
	}{
		{name: "zero", y: base, lo: base, hi: base + minBarHeight, short: true},
		{name: "a hair above", y: base + 0.5, lo: base, hi: base + minBarHeight, short: true},
		{name: "a hair below", y: base - 0.5, lo: base - minBarHeight, hi: base, short: true},
		{name: "tall", y: base + 40, lo: base, hi: base + 40},
		{name: "deep", y: base - 40, lo: base - 40, hi: base},
		{name: "exactly minBarHeight", y: base + minBarHeight, lo: base, hi: base + minBarHeight},
	}
	for _, tc := range cases {
		lo, hi, short := barEnds(base, tc.y)
		if lo != tc.lo || hi != tc.hi || short != tc.short {
			t.Errorf("%s: barEnds(%v, %v) = %v, %v, %v; want %v, %v, %v", tc.name, base, tc.y, lo, hi, short, tc.lo, tc.hi, tc.short)
		}
	}
}
