package figures

import (
	"math"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/metrics"
)

// TestLossSegments checks figure 6's stacking: non-negative losses stack
// up from 0 in the order selection, order, enforcement; a negative
// enforcement loss hangs below 0; undefined and zero losses draw nothing.
func TestLossSegments(t *testing.T) {
	m := func(v float64) metrics.Mean { return metrics.Mean{Value: v, N: 3, Defined: true} }
	cases := []struct {
		name string
		bar  lossBar
		want []lossSegment
	}{
		{
			name: "all positive",
			bar:  lossBar{selection: m(0.25), order: m(0.125), enforcement: m(0.5)},
			want: []lossSegment{{0, 0.25, selectionColour}, {0.25, 0.375, orderColour}, {0.375, 0.875, enforcementColour}},
		},
		{
			name: "enforcement negative: below zero",
			bar:  lossBar{selection: m(0.25), order: m(0.125), enforcement: m(-0.25)},
			want: []lossSegment{{0, 0.25, selectionColour}, {0.25, 0.375, orderColour}, {-0.25, 0, enforcementColour}},
		},
		{
			name: "zero order draws no segment",
			bar:  lossBar{selection: m(0.5), order: m(0), enforcement: m(0.25)},
			want: []lossSegment{{0, 0.5, selectionColour}, {0.5, 0.75, enforcementColour}},
		},
		{name: "undefined", bar: lossBar{}, want: nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.bar.segments()
			if len(got) != len(tc.want) {
				t.Fatalf("segments %v, want %v", got, tc.want)
			}
			for i := range got {
				if math.Abs(got[i].lo-tc.want[i].lo) > 1e-12 || math.Abs(got[i].hi-tc.want[i].hi) > 1e-12 || got[i].colour != tc.want[i].colour {
					t.Errorf("segment %d: %v, want %v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// TestWhyFiguresCaptions checks what the captions of figures 6 and 7 say
// about the fixture: the pools per bar and mark, the α, the pools without a
// decomposition and their cell, and the references by name.
func TestWhyFiguresCaptions(t *testing.T) {
	figs := drawFixture(t, fixtureReport(), Options{DPI: 18})
	captions := map[Kind]string{}
	for _, f := range figs {
		captions[f.Kind] = f.Caption
	}
	cases := []struct {
		kind Kind
		want []string
	}{
		{KindLosses, []string{
			"α = 0.5, strategy llm, variant default",
			"(n = 3–4 pools per bar)", "(n = 4 pools per mark)",
			"a negative one (the enforced allocations gained value) is drawn below zero",
			"Pools without a decomposition", "1 of the 44 behind the marks", "qwen-32b [std] on aime (1 of 4)",
		}},
		{KindSelfKnowledge, []string{
			"α = 0.5", "strategy llm, variant default", "population reference (grey)", "self_feasibility (orange)", "self_cost (sky blue)",
			"(n = 4 pools per bar)",
		}},
	}
	for _, tc := range cases {
		caption, ok := captions[tc.kind]
		if !ok {
			t.Errorf("no %s figure", tc.kind)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(caption, w) {
				t.Errorf("%s caption lacks %q:\n%s", tc.kind, w, caption)
			}
		}
	}
}
