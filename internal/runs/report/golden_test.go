package report

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/testkit/golden"
)

// TestGolden builds the fixture's report, writes it with WriteDir and
// compares every file with testdata/golden/<name>; run with -update to
// rewrite them.
func TestGolden(t *testing.T) {
	recs, acc := fixture()
	dir := t.TempDir()
	if err := Build(recs, acc).WriteDir(filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	written, err := os.ReadDir(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range written {
		names = append(names, e.Name())
	}
	want := FileNames()
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("WriteDir wrote %v, want %v", names, want)
	}
	for _, name := range FileNames() {
		t.Run(name, func(t *testing.T) {
			got, err := os.ReadFile(filepath.Join(dir, "out", name))
			if err != nil {
				t.Fatal(err)
			}
			golden.File(t, filepath.Join("testdata", "golden", name), got)
		})
	}
}

// TestSummaryGolden compares the fixture's summary (SummaryTable as
// Markdown, as `triage report` prints it) with testdata/golden/summary.md:
// among others its column naming each solver's dominant loss.
func TestSummaryGolden(t *testing.T) {
	recs, acc := fixture()
	var buf bytes.Buffer
	if err := WriteMarkdownTable(&buf, Build(recs, acc).SummaryTable(nil)); err != nil {
		t.Fatal(err)
	}
	golden.File(t, filepath.Join("testdata", "golden", "summary.md"), buf.Bytes())
}

// TestOutputIndependentOfInputOrder: reversing the records (the duplicate
// left out, since the first of two records of a pool is the one kept) and
// the accuracies changes no output byte.
func TestOutputIndependentOfInputOrder(t *testing.T) {
	recs, acc := fixture()
	recs = recs[:len(recs)-1] // drop the duplicate
	rev := slices.Clone(recs)
	slices.Reverse(rev)
	revAcc := slices.Clone(acc)
	slices.Reverse(revAcc)
	a, b := Build(recs, acc), Build(rev, revAcc)
	for _, f := range files {
		var x, y bytes.Buffer
		if err := f.Write(a, &x); err != nil {
			t.Fatal(err)
		}
		if err := f.Write(b, &y); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x.Bytes(), y.Bytes()) {
			t.Errorf("%s depends on the input order", f.Name)
		}
	}
}

// TestPoolsCSVReproducesTheMeans recomputes every cell's mean η, regret
// decomposition and plan diagnostics from pools.csv alone and compares them
// with cells.csv.
func TestPoolsCSVReproducesTheMeans(t *testing.T) {
	recs, acc := fixture()
	rep := Build(recs, acc)
	var pools, cells bytes.Buffer
	if err := rep.PoolsCSV(&pools); err != nil {
		t.Fatal(err)
	}
	if err := rep.CSV(&cells); err != nil {
		t.Fatal(err)
	}
	read := func(b *bytes.Buffer) []map[string]string {
		rows, err := csv.NewReader(b).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		var out []map[string]string
		for _, row := range rows[1:] {
			m := map[string]string{}
			for i, h := range rows[0] {
				m[h] = row[i]
			}
			out = append(out, m)
		}
		return out
	}
	key := func(m map[string]string) string {
		return strings.Join([]string{m["model"], m["mode"], m["dataset"], m["alpha"], m["variant"], m["strategy"], m["regime"]}, "|")
	}
	// η and every per-pool quantity averaged over the pools that define it.
	columns := append([]string{"eta"}, planMetricNames[:]...)
	sum, n, seen := map[string]float64{}, map[string]int{}, map[string]bool{}
	for _, p := range read(&pools) {
		if p["source"] != "" || p["excluded"] != "" {
			continue // injection cells are in injection.csv
		}
		if seen[key(p)+"|"+p["pool"]] {
			t.Errorf("%s pool %s is listed twice as included", key(p), p["pool"])
		}
		seen[key(p)+"|"+p["pool"]] = true
		for _, col := range columns {
			if p[col] == "" {
				continue
			}
			x, err := strconv.ParseFloat(p[col], 64)
			if err != nil {
				t.Fatalf("pools.csv %s %q: %v", col, p[col], err)
			}
			sum[key(p)+"|"+col] += x
			n[key(p)+"|"+col]++
		}
	}
	checked := 0
	for _, c := range read(&cells) {
		for _, col := range columns {
			k := key(c) + "|" + col
			if c[col] == "" {
				if n[k] != 0 {
					t.Errorf("%s: cells.csv has no mean, pools.csv has %d pools", k, n[k])
				}
				continue
			}
			want, _ := strconv.ParseFloat(c[col], 64)
			if got := sum[k] / float64(n[k]); math.Abs(got-want) > 1e-12 || strconv.Itoa(n[k]) != c[col+"_n"] {
				t.Errorf("%s: pools.csv gives %v over %d pools, cells.csv %v over %s", k, got, n[k], want, c[col+"_n"])
			}
			checked++
		}
	}
	if checked < 300 {
		t.Errorf("only %d cells checked", checked)
	}
}
