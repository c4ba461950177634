package report

import (
	"bytes"
	"fmt"
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

// TestFewPoolsMark: every table's interval over fewer than FewPools pools
// is marked "†" and the table carries noteFewPools; over FewPools pools or
// more, neither. Two solvers on one dataset give every table with an
// interval: the main, per-α, loss, summary, comparison and cells tables.
func TestFewPoolsMark(t *testing.T) {
	for _, tc := range []struct {
		pools  int
		marked bool
	}{{2, true}, {4, true}, {FewPools, false}, {8, false}} {
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

// TestCIPools: a mean over one dataset's pools is marked by its n; a mean
// over datasets by the fewest pools of a dataset its stratified interval
// resamples (a dataset of one pool enters every resample as it is), 1
// when it resamples none.
func TestCIPools(t *testing.T) {
	pools := func(ns ...int) [][]float64 {
		var out [][]float64
		for _, n := range ns {
			out = append(out, make([]float64, n))
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		n      int
		strata [][]float64
		want   int
	}{
		{"one dataset's pools", 4, nil, 4},
		{"3 datasets of 2 pools", 6, pools(2, 2, 2), 2},
		{"2 and 8 pools", 10, pools(2, 8), 2},
		{"one dataset of 1 pool, 6 and 7", 14, pools(1, 6, 7), 6},
		{"every dataset 1 pool", 3, pools(1, 1, 1), 1},
		{"a single dataset", 5, pools(5), 5},
	} {
		if got := ciPools(tc.n, tc.strata); got != tc.want {
			t.Errorf("%s: ciPools(%d, …) = %d, want %d", tc.name, tc.n, got, tc.want)
		}
	}
}

// TestFewPoolsMarkOverDatasets: a mean over datasets is marked when a
// dataset it resamples has fewer than FewPools pools, whatever its pools
// in total — 3 datasets of 2 pools (n = 6) are marked, 3 of 5 (n = 15)
// are not, 2 and 8 pools (n = 10) are, a single-pool dataset beside two of
// 6 pools (n = 13) is not (it is not resampled) — in the summary, the "Why
// plans lose value" table's and the η by α table's rows over datasets.
func TestFewPoolsMarkOverDatasets(t *testing.T) {
	for _, tc := range []struct {
		name   string
		pools  []int // per dataset
		marked bool
	}{
		{"3 datasets of 2 pools", []int{2, 2, 2}, true},
		{"3 datasets of 5 pools", []int{5, 5, 5}, false},
		{"2 and 8 pools", []int{2, 8}, true},
		{"1, 6 and 6 pools", []int{1, 6, 6}, false},
	} {
		var recs []ScoreRecord
		for d, n := range tc.pools {
			for pool := range n {
				vu := float64(1 + pool%3)
				recs = append(recs, planRecords(fmt.Sprintf("d%d", d), pool, planPool{oracle: 4, vs: 3, vu: vu, ve: vu - float64(pool%2), decomposed: true})...)
			}
		}
		rep := Build(recs, nil)
		check := func(where string, cells []string) {
			t.Helper()
			for _, cell := range cells {
				if got := strings.Contains(cell, "]"+FewPoolsMark); got != tc.marked {
					t.Errorf("%s, %s: %q marked %v, want %v", tc.name, where, cell, got, tc.marked)
				}
			}
		}

		sum := rep.SummaryTable(nil)
		if len(sum.Rows) != 1 {
			t.Fatalf("%s: summary rows %q", tc.name, sum.Rows)
		}
		check("summary", sum.Rows[0][4:6])
		if got := slices.Contains(sum.Notes, noteFewPools); got != tc.marked {
			t.Errorf("%s: the summary's † note %v, want %v", tc.name, got, tc.marked)
		}

		var lossRow, alphaRow []string
		for _, tb := range rep.Tables() {
			for _, row := range tb.Rows {
				switch {
				case strings.HasPrefix(tb.Title, "Why plans lose value") && row[2] == datasetLabel(AllDatasets):
					lossRow = row
				case strings.HasPrefix(tb.Title, "η_U / η_E by α — "+datasetPhrase(AllDatasets)):
					alphaRow = row
				}
			}
		}
		if lossRow == nil || alphaRow == nil {
			t.Fatalf("%s: no row over datasets in the loss table (%q) or the η by α table (%q)", tc.name, lossRow, alphaRow)
		}
		check("losses over datasets", append(slices.Clone(lossRow[3:6]), lossRow[7:9]...))
		check("η by α over datasets", alphaRow[2:3])
	}
}
