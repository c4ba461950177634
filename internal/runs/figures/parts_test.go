package figures

import (
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/runs/report"
)

func TestFileStem(t *testing.T) {
	cases := []struct {
		parts []string
		want  string
	}{
		{[]string{"efficiency", "llm", "default", "a0.5"}, "efficiency_llm_default_a0.5"},
		{[]string{"heatmap", "eta", "U", "shortest_first"}, "heatmap_eta_u_shortest_first"},
		{[]string{"injection", "", "random", "a1"}, "injection_random_a1"},
		{[]string{"x", "variant B/ü C"}, "x_variant-b---c"},
	}
	for _, tc := range cases {
		if got := fileStem(tc.parts...); got != tc.want {
			t.Errorf("fileStem(%q) = %q, want %q", tc.parts, got, tc.want)
		}
	}
}

func TestFixed3FormatsAsTheTables(t *testing.T) {
	cases := []struct {
		m    metrics.Mean
		want string
	}{
		{metrics.Mean{Value: 0.12345, N: 3, Defined: true}, "0.123"},
		{metrics.Mean{Value: -0.0001, N: 3, Defined: true}, "0.000"},
		{metrics.Mean{Value: -3, N: 4, Defined: true}, "-3.000"},
		{metrics.Mean{}, "—"},
	}
	for _, tc := range cases {
		if got := report.FormatMean(tc.m); got != tc.want {
			t.Errorf("report.FormatMean(%+v) = %q, want %q", tc.m, got, tc.want)
		}
	}
}

func TestCountRange(t *testing.T) {
	var r countRange
	for _, n := range []int{3, 4, 2, 3} {
		r.add(n)
	}
	if got := r.String(); got != "n = 2–4" {
		t.Errorf("got %q, want n = 2–4", got)
	}
	var one countRange
	one.add(5)
	if got := one.String(); got != "n = 5" {
		t.Errorf("got %q, want n = 5", got)
	}
}

func TestIntervalPhrase(t *testing.T) {
	cases := []struct {
		b    metrics.Bootstrap
		want string
	}{
		{metrics.Bootstrap{}, "95% percentile bootstrap intervals over the pools (10,000 resamples, seed 0; none below 2 pools)"},
		{metrics.Bootstrap{Resamples: 2000, Seed: 7, TailPerMille: 5}, "99% percentile bootstrap intervals over the pools (2,000 resamples, seed 7; none below 2 pools)"},
	}
	for _, tc := range cases {
		if got := intervalPhrase(tc.b.Resolved()); got != tc.want { // resolved, as Report.Bootstrap is
			t.Errorf("intervalPhrase(%+v) = %q, want %q", tc.b, got, tc.want)
		}
	}
}

func TestColourScales(t *testing.T) {
	hex := func(c color.Color) uint32 {
		r, g, b, _ := c.RGBA()
		return r>>8<<16 | g>>8<<8 | b>>8
	}
	cases := []struct {
		name  string
		scale colourScale
		v     float64
		want  uint32
	}{
		{"diverging bottom", divergingScale(), -1, uint32(coral)},
		{"diverging capped below", divergingScale(), -3, uint32(coral)},
		{"diverging middle is white", divergingScale(), 0, uint32(white)},
		{"diverging top", divergingScale(), 1, uint32(navy)},
		{"sequential bottom is white", sequentialScale(), 0, uint32(white)},
		{"sequential top", sequentialScale(), 1, uint32(teal)},
		{"sequential halfway", sequentialScale(), 0.5, 0x8BC7C2},
	}
	for _, tc := range cases {
		if got := hex(tc.scale.at(tc.v)); got != tc.want {
			t.Errorf("%s: at(%v) = %06X, want %06X", tc.name, tc.v, got, tc.want)
		}
	}
	if d := divergingScale(); d.capped(-1) || d.capped(1) || !d.capped(-1.0001) || !d.capped(1.5) {
		t.Error("the diverging scale must cap exactly outside [−1, 1]")
	}
}

func TestInkOn(t *testing.T) {
	if inkOn(navy) != white || inkOn(white) != black || inkOn(undefinedGrey) != black {
		t.Error("text must be white on navy and black on white and grey")
	}
}

// TestHatchLines checks that every hatch segment lies inside its bar, at
// 45°, and that the hatching covers the bar.
func TestHatchLines(t *testing.T) {
	r := vg.Rectangle{Min: vg.Point{X: 10, Y: -20}, Max: vg.Point{X: 22, Y: 30}}
	segs := hatchLines(r, 3)
	if len(segs) < 15 {
		t.Fatalf("%d hatch lines over a 12×50 bar at step 3, want ≥ 15", len(segs))
	}
	const eps = 1e-9
	for _, s := range segs {
		for _, p := range s {
			if p.X < r.Min.X-eps || p.X > r.Max.X+eps || p.Y < r.Min.Y-eps || p.Y > r.Max.Y+eps {
				t.Errorf("hatch point %v outside %v", p, r)
			}
		}
		if dx, dy := s[1].X-s[0].X, s[1].Y-s[0].Y; dx <= 0 || math.Abs(float64(dx-dy)) > eps {
			t.Errorf("hatch segment %v is not a 45° line", s)
		}
	}
	if segs := hatchLines(vg.Rectangle{}, 3); len(segs) != 0 {
		t.Errorf("an empty bar got %d hatch lines", len(segs))
	}
}

func TestStarPoints(t *testing.T) {
	pts := starPoints(vg.Point{X: 5, Y: 5}, 10)
	if len(pts) != 10 {
		t.Fatalf("%d points, want 10", len(pts))
	}
	for i, p := range pts {
		d := math.Hypot(float64(p.X-5), float64(p.Y-5))
		want := 10.0
		if i%2 == 1 {
			want = 4
		}
		if math.Abs(d-want) > 1e-9 {
			t.Errorf("point %d at distance %v, want %v", i, d, want)
		}
	}
	if math.Abs(float64(pts[0].X-5)) > 1e-9 || pts[0].Y != 15 {
		t.Errorf("the first point %v must point up", pts[0])
	}
}

func TestWriteDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "figures")
	figs := []Figure{
		{Name: "a", Title: "Figure A", Caption: "What A shows.", SVG: []byte("<svg/>"), PNG: []byte("png-a")},
		{Name: "b", Title: "Figure B", Caption: "What B shows.", SVG: []byte("<svg></svg>"), PNG: []byte("png-b")},
	}
	if err := WriteDir(dir, figs); err != nil {
		t.Fatalf("WriteDir: %v", err)
	}
	for _, f := range figs {
		for ext, want := range map[string][]byte{".svg": f.SVG, ".png": f.PNG} {
			got, err := os.ReadFile(filepath.Join(dir, f.Name+ext))
			if err != nil || string(got) != string(want) {
				t.Errorf("%s%s: %q, %v; want %q", f.Name, ext, got, err, want)
			}
		}
	}
	index, err := os.ReadFile(filepath.Join(dir, IndexName))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Figure A", "![Figure A](a.svg) ([PNG](a.png))", "What B shows."} {
		if !strings.Contains(string(index), want) {
			t.Errorf("%s lacks %q:\n%s", IndexName, want, index)
		}
	}
	if err := WriteDir(dir, []Figure{figs[0], figs[0]}); err == nil {
		t.Error("WriteDir accepted two figures with one name")
	}
}
