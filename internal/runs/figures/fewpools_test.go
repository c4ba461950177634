package figures

import (
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/runs/report"
)

// cellRecords returns the U and E records of the given number of pools of
// one llm cell (α = 0.5, variant default) on aime, η varying by pool.
func cellRecords(model string, pools int) []report.ScoreRecord {
	var out []report.ScoreRecord
	for pool := range pools {
		for _, regime := range []string{"U", "E"} {
			out = append(out, scored(report.ScoreRecord{
				Model: model, Mode: "standard", Dataset: "aime", Pool: pool, Alpha: 0.5,
				Variant: "default", Strategy: "llm", Regime: regime,
				Value: float64(2 + pool%3), Oracle: 6, Random: 2, PoolSize: 10,
			}))
		}
	}
	return out
}

// TestWhiskersOverFewPools: a bar figure whose whiskers include intervals
// over fewer than report.FewPools pools — those the tables beside it mark
// report.FewPoolsMark — says so in its caption, in the words of the
// tables' note, and does not call them confidence intervals in its
// legend; a figure without one keeps "95% CI" and says nothing more.
func TestWhiskersOverFewPools(t *testing.T) {
	for _, tc := range []struct {
		name         string
		pools        []int // per solver
		wantSentence string
		wantLegend   string
	}{
		{"2 pools each", []int{2, 2}, "Every whisker is over fewer than 5 pools († in the report's tables): ", "range of the pools (n < 5)"},
		{"2 and 6 pools", []int{2, 6}, "2 of the 4 whiskers are over fewer than 5 pools († in the report's tables): ", "95% CI (range if n < 5)"},
		{"6 and 8 pools", []int{6, 8}, "", "95% CI"},
	} {
		var recs []report.ScoreRecord
		models := []string{"m", "n"}
		for i, p := range tc.pools {
			recs = append(recs, cellRecords(models[i], p)...)
		}
		rep := report.Build(recs, nil)
		figs, err := Draw(rep, nil, Options{DPI: 18})
		if err != nil {
			t.Fatal(err)
		}

		// The tables mark the intervals the caption warns of.
		var marked int
		for _, tb := range rep.Tables() {
			if tb.Title != report.MainTableTitle(false, 0.5, "llm", "default") {
				continue
			}
			for _, row := range tb.Rows {
				marked += strings.Count(strings.Join(row, " "), "]"+report.FewPoolsMark)
			}
		}

		for _, kind := range []Kind{KindEfficiency, KindRegret} {
			var fig Figure
			for _, f := range figs {
				if f.Kind == kind {
					fig = f
				}
			}
			if fig.Name == "" {
				t.Fatalf("%s: no %s figure", tc.name, kind)
			}
			warns := strings.Contains(fig.Caption, report.FewPoolsCaveat)
			if tc.wantSentence == "" {
				if warns || marked > 0 {
					t.Errorf("%s, %s: caption warns %v, %d intervals marked in the η table; want neither:\n%s", tc.name, kind, warns, marked, fig.Caption)
				}
			} else if !strings.Contains(fig.Caption, tc.wantSentence+report.FewPoolsCaveat+".") || marked == 0 {
				t.Errorf("%s, %s: caption lacks %q (η table: %d marked):\n%s", tc.name, kind, tc.wantSentence, marked, fig.Caption)
			}
			if n := countTexts(t, fig.SVG, tc.wantLegend); n != 1 {
				t.Errorf("%s, %s: legend %q %d times, want once", tc.name, kind, tc.wantLegend, n)
			}
			if tc.wantLegend != "95% CI" && countTexts(t, fig.SVG, "95% CI") != 0 {
				t.Errorf("%s, %s: the legend still calls every whisker a 95%% CI", tc.name, kind)
			}
		}
	}
}

// TestWhiskerTally checks the caption's count and the legend at another
// level than 95%.
func TestWhiskerTally(t *testing.T) {
	var w whiskerTally
	for _, n := range []int{2, 5, 9} {
		w.add(n)
	}
	if got, want := w.sentence(), "1 of the 3 whiskers is over fewer than 5 pools († in the report's tables): "+report.FewPoolsCaveat+"."; got != want {
		t.Errorf("sentence() = %q, want %q", got, want)
	}
	one := whiskerTally{}
	one.add(3)
	if got := one.sentence(); !strings.HasPrefix(got, "The whisker is over fewer than 5 pools") {
		t.Errorf("one whisker: %q", got)
	}
	b := report.Build(nil, nil).Bootstrap
	b.TailPerMille = 5
	if got := (whiskerTally{all: 2}).legend(b); got != "99% CI" {
		t.Errorf("legend at 99%% = %q", got)
	}
}
