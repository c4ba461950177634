package report

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// fewPoolsRecords returns the llm cells (regimes U and E) of solver model
// on dataset d at α = 0.5 over the given number of pools, η varying from
// pool to pool so that every interval has a width.
func fewPoolsRecords(model, d string, pools int) []ScoreRecord {
	var recs []ScoreRecord
	for pool := range pools {
		for _, regime := range []string{"U", "E"} {
			recs = append(recs, rec(model, "standard", d, 0.5, "default", "llm", regime, pool, float64(1+pool%3), 4, 1))
		}
	}
	return recs
}

// intervalText matches a formatted interval, with its mark if any.
var intervalText = regexp.MustCompile(`\[-?\d+\.\d{3}, -?\d+\.\d{3}\](†?)`)

// TestFewPoolsMark: every table's interval over fewer than fewPools pools
// is marked "†" and the table carries noteFewPools; over fewPools pools or
// more, neither. Two solvers on one dataset give every table with an
// interval: the main, per-α, loss, summary, comparison and cells tables.
func TestFewPoolsMark(t *testing.T) {
	for _, tc := range []struct {
		pools  int
		marked bool
	}{{2, true}, {4, true}, {fewPools, false}, {8, false}} {
		rep := Build(append(fewPoolsRecords("m", "d", tc.pools), fewPoolsRecords("n", "d", tc.pools)...), nil)
		tables := append(rep.Tables(), rep.SummaryTable(nil), rep.CellsTable())
		intervals := 0
		for _, tb := range tables {
			var marks []bool
			for _, row := range tb.Rows {
				for _, cell := range row {
					for _, m := range intervalText.FindAllStringSubmatch(cell, -1) {
						marks = append(marks, m[1] == "†")
					}
				}
			}
			if len(marks) == 0 {
				continue
			}
			intervals += len(marks)
			if slices.Contains(marks, !tc.marked) {
				t.Errorf("%d pools, %q: marks %v, want every one %v", tc.pools, tb.Title, marks, tc.marked)
			}
			if got := slices.Contains(tb.Notes, noteFewPools); got != tc.marked {
				t.Errorf("%d pools, %q: note %v, want %v; notes %q", tc.pools, tb.Title, got, tc.marked, tb.Notes)
			}
		}
		if intervals == 0 {
			t.Fatalf("%d pools: no interval in any table", tc.pools)
		}
	}
}

// TestFewPoolsMarkPerInterval: in one table, the interval over 2 pools is
// marked and the one over 6 is not; Markdown keeps the mark, LaTeX writes
// it as \textdagger{}.
func TestFewPoolsMarkPerInterval(t *testing.T) {
	rep := Build(append(fewPoolsRecords("m", "d", 2), fewPoolsRecords("n", "d", 6)...), nil)
	var main Table
	for _, tb := range rep.Tables() {
		if tb.Title == MainTableTitle(false, 0.5, "llm", "default") {
			main = tb
		}
	}
	if len(main.Rows) != 2 {
		t.Fatalf("main η table: %+v", main)
	}
	if cell := main.Rows[0][2]; strings.Count(cell, "]†") != 2 || !strings.HasSuffix(cell, "(n=2)") {
		t.Errorf("m, 2 pools: %q, want both intervals marked", cell)
	}
	if cell := main.Rows[1][2]; strings.Contains(cell, "†") || !strings.HasSuffix(cell, "(n=6)") {
		t.Errorf("n, 6 pools: %q, want no mark", cell)
	}
	if !slices.Contains(main.Notes, noteFewPools) {
		t.Errorf("notes lack the † note: %q", main.Notes)
	}
	var md, tex bytes.Buffer
	if err := rep.Markdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := rep.LaTeX(&tex); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "]†") || !strings.Contains(md.String(), noteFewPools) {
		t.Error("Markdown lacks the mark or its note")
	}
	if !strings.Contains(tex.String(), `]\textdagger{}`) {
		t.Error(`LaTeX does not write the mark as \textdagger{}`)
	}
}
