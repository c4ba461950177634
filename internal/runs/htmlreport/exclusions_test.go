package htmlreport

import (
	"bytes"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/runs/report"
)

// TestSummaryNamesExclusions reproduces a researcher's report: 2 of 3
// aime pools failed (the planner's model answered HTTP 500, so those
// pools are excluded as error), and the summary showed the mean over the
// one pool left as if it covered the dataset, with a note that aime has a
// single pool. Both renderers of the summary — the Markdown `triage
// report` prints and report.html's opening table — must say how many
// pools each mean averages and why the others are left out, and the note
// on single-pool datasets must say what is true.
func TestSummaryNamesExclusions(t *testing.T) {
	// pools returns the U and E records of one dataset's pools, those in
	// failed excluded for that reason ("missingE" excludes regime E only).
	pools := func(dataset string, n int, failed map[int]string) []report.ScoreRecord {
		var out []report.ScoreRecord
		for pool := range n {
			for _, regime := range []string{"U", "E"} {
				r := report.ScoreRecord{
					Model: "m", Mode: "standard", Dataset: dataset, Pool: pool, Alpha: 0.5, Variant: "default", Strategy: "llm",
					Regime: regime, Value: float64(2 + pool%3), Oracle: 5, Random: 2, PoolSize: 20,
				}
				switch why := failed[pool]; {
				case why == "missingE" && regime == "E":
					r.Excluded = "missing"
				case why != "" && why != "missingE":
					r.Excluded, r.Detail = why, "HTTP 500 after 3 retries"
				}
				if r.Excluded == "" {
					r = scored(r)
				}
				out = append(out, r)
			}
		}
		return out
	}
	// modelRecs gives recs to model instead.
	modelRecs := func(model string, recs []report.ScoreRecord) []report.ScoreRecord {
		for i := range recs {
			recs[i].Model = model
		}
		return recs
	}
	cases := []struct {
		name string
		recs []report.ScoreRecord
		// want must appear in both renderings, not must not.
		want, not []string
	}{{
		name: "the researcher's run: aime alone, 2 of 3 pools failed",
		recs: pools("aime", 3, map[int]string{1: "error", 2: "error"}),
		want: []string{
			"(n=1 of 3; 2 excluded: error)",
			"No interval where a mean has a single pool with a value in all (SPEC §5: none below 2 pools): m standard on aime (1 of 3 pools with a value; 2 excluded: error).",
			"n=k of m:",
		},
		not: []string{"A dataset with a single pool", "enters every resample"},
	}, {
		name: "aime down to one pool beside a complete dataset",
		recs: append(pools("aime", 3, map[int]string{0: "error", 2: "error"}), pools("gpqa", 4, nil)...),
		want: []string{
			"(n=5 of 7; 2 excluded: error)",
			"A dataset where a solver has a single pool with a value, the others excluded, enters every resample of that solver's interval as it is, which then reflects the other datasets' pools only: m standard on aime (1 of 3 pools with a value; 2 excluded: error).",
			"error — the planner's model call failed after its retries",
		},
		not: []string{"A dataset with a single pool (aime)", "No interval"},
	}, {
		name: "a dataset of one pool, nothing excluded: the note as before",
		recs: append(pools("aime", 1, nil), pools("gpqa", 4, nil)...),
		want: []string{"A dataset with a single pool (aime) enters every resample of the interval as it is: the interval reflects the other datasets' pools only."},
		not:  []string{"excluded", "n=k of m"},
	}, {
		name: "several reasons, and a pool excluded in regime E only",
		recs: append(pools("aime", 4, map[int]string{0: "error", 1: "unparseable", 3: "missingE"}), pools("gpqa", 4, map[int]string{2: "error"})...),
		want: []string{
			"(n=5 of 8; 3 excluded: error:2, unparseable:1)",
			"(n=4 of 8; 4 excluded: error:2, missing:1, unparseable:1)",
			// Only regime E is down to one pool on aime.
			"the other datasets' pools only: m standard on aime (E: 1 of 4 pools with a value; 3 excluded: error:1, missing:1, unparseable:1).",
		},
	}, {
		name: "a dataset of one pool beside one left with one, and a solver without an interval",
		recs: append(append(pools("aime", 1, nil), pools("gpqa", 3, map[int]string{0: "error", 1: "unparseable"})...),
			modelRecs("n", pools("gpqa", 3, map[int]string{0: "error", 2: "error"}))...),
		want: []string{
			"A dataset with a single pool (aime) enters every resample of the interval as it is: the interval reflects the other datasets' pools only. So does a dataset where a solver has a single pool with a value, the others excluded: m standard on gpqa (1 of 3 pools with a value; 2 excluded: error:1, unparseable:1).",
			"No interval where a mean has a single pool with a value in all (SPEC §5: none below 2 pools): n standard on gpqa (1 of 3 pools with a value; 2 excluded: error).",
		},
		not: []string{"n standard on aime"},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep := report.Build(tc.recs, nil)
			var md bytes.Buffer
			if err := report.WriteMarkdownTable(&md, rep.SummaryTable(nil)); err != nil {
				t.Fatal(err)
			}
			html := sections(t, render(t, Input{Report: rep}))["summary"]
			for _, want := range tc.want {
				if !strings.Contains(md.String(), want) {
					t.Errorf("the printed summary lacks %q:\n%s", want, md.String())
				}
				if !strings.Contains(html, escapedText(want)) {
					t.Errorf("report.html's summary lacks %q:\n%s", want, html)
				}
			}
			for _, not := range tc.not {
				if strings.Contains(md.String(), not) || strings.Contains(html, escapedText(not)) {
					t.Errorf("the summary says %q:\n%s", not, md.String())
				}
			}
		})
	}
}
