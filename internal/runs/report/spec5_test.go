package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// Tests of SPEC §5's reporting rules: the headline variant, stratified
// intervals with single-pool strata, degenerate pools, and random_se_max.

// variantRecords is one solver's llm cells on one dataset at α = 0.5 under
// the given variants, in the given order, with 3 pools each: variant v's
// pools score V_M = eta[v]·(oracle − random) + random, so its mean η is
// eta[v].
func variantRecords(model string, variants []string, eta map[string]float64) []ScoreRecord {
	var recs []ScoreRecord
	for _, v := range variants {
		for pool := range 3 {
			for _, regime := range []string{"U", "E"} {
				recs = append(recs, rec(model, "standard", "d", 0.5, v, "llm", regime, pool, 1+3*eta[v], 4, 1))
			}
		}
	}
	return recs
}

// TestHeadlineUsesTheDefaultVariant: the summary shows variant default
// (SPEC §5) whatever order the records, and so the config, list the
// variants in; "A" sorting before "default" does not matter. Without a
// default variant the first variant is shown, and the notes say so.
func TestHeadlineUsesTheDefaultVariant(t *testing.T) {
	eta := map[string]float64{"default": 2.0 / 3, "A": 1.0 / 3, "B": 0, "C": -1.0 / 3}
	for _, order := range [][]string{{"default", "A", "B", "C"}, {"A", "B", "C", "default"}, {"C", "default", "B", "A"}} {
		rep := Build(append(variantRecords("m", order, eta), variantRecords("n", order, eta)...), nil)
		rows := rep.Headline()
		if len(rows) != 2 {
			t.Fatalf("order %v: %d rows, want 2", order, len(rows))
		}
		for _, row := range rows {
			if row.Variant != vocab.Default || !near9(row.EtaU.Value, eta["default"]) {
				t.Errorf("order %v: headline %s %s η_U %v, want variant default with %v", order, row.Model, row.Variant, row.EtaU.Value, eta["default"])
			}
		}
		sum := rep.SummaryTable(nil)
		if sum.Rows[0][2] != "llm (default)" || !strings.Contains(strings.Join(sum.Notes, " "), "prompt variant default (the paper's appendix prompt)") {
			t.Errorf("order %v: summary strategy %q, notes %q", order, sum.Rows[0][2], sum.Notes)
		}
		cmp := rep.ComparisonTables()
		if len(cmp) != 1 || cmp[0].Title != "Paired differences of η between solvers — strategy llm, variant default" {
			t.Errorf("order %v: comparison tables %v", order, cmp)
		}
		// Every list of variants starts with the headline one.
		if got := rep.Cells[0].Variant; got != vocab.Default {
			t.Errorf("order %v: first cell's variant %q", order, got)
		}
		if vr := rep.Sensitivity().Ranges[0]; vr.Variants[0].Variant != vocab.Default {
			t.Errorf("order %v: sensitivity variants %v", order, vr.Variants)
		}
	}

	rep := Build(variantRecords("m", []string{"C", "B"}, eta), nil)
	rows := rep.Headline()
	if len(rows) != 1 || rows[0].Variant != "B" {
		t.Fatalf("without default: %+v, want variant B", rows)
	}
	if notes := strings.Join(rep.SummaryTable(nil).Notes, " "); !strings.Contains(notes, "The run has no prompt variant default: strategy llm is shown under variant B") {
		t.Errorf("without default, the notes do not say which variant is shown: %q", notes)
	}
}

// TestMacroIntervalWithASinglePoolDataset: a mean over datasets where one
// dataset has a single pool gets a stratified interval (SPEC §5), that pool
// entering every resample as it is, and the table's notes name it. The
// interval is checked against an independent computation: with datasets
// {d1: one pool of η = c, d2: pools g}, each resample mean is
// (c + mean of g's resample)/2, a monotone map of MeanCI's resample means
// from the same index stream (group 1's stream is MeanCI's at seed ^ 2γ).
func TestMacroIntervalWithASinglePoolDataset(t *testing.T) {
	values := []float64{3, 1, 4, 1, 5, 0, 2}                                     // V_M of d2's pools
	recs := []ScoreRecord{rec("m", "s", "d1", 0.5, "A", "llm", "U", 0, 2, 5, 1)} // η = 1/4
	var g []float64
	for pool, v := range values {
		recs = append(recs, rec("m", "s", "d2", 0.5, "A", "llm", "U", pool, v, 5, 1))
		g = append(g, (v-1)/4)
	}
	for _, seed := range []uint64{0, 11} {
		rep := BuildWith(recs, nil, Options{Bootstrap: metrics.Bootstrap{Seed: seed}})
		c, _ := rep.Macro("m", "s", 0.5, "A", "llm", "U")
		gamma := uint64(0x9E3779B97F4A7C15)
		one := metrics.Bootstrap{Seed: seed ^ 2*gamma}.MeanCI(g)
		want := metrics.Interval{Lo: (0.25 + one.Lo) / 2, Hi: (0.25 + one.Hi) / 2, Defined: true}
		if c.EtaCI != want {
			t.Errorf("seed %d: macro interval %+v, want %+v", seed, c.EtaCI, want)
		}
		if len(c.SinglePool) != 1 || c.SinglePool[0].Dataset != "d1" || len(c.SinglePool[0].Excluded) > 0 || len(c.Missing) > 0 {
			t.Errorf("seed %d: single-pool datasets %v, missing %v", seed, c.SinglePool, c.Missing)
		}
		if !(c.EtaCI.Lo <= c.Eta.Value && c.Eta.Value <= c.EtaCI.Hi) {
			t.Errorf("seed %d: mean %v outside %+v", seed, c.Eta.Value, c.EtaCI)
		}
	}
	rep := Build(recs, nil)
	var notes string
	for _, tb := range rep.Tables() {
		if strings.HasPrefix(tb.Title, "η_U / η_E by α — mean over datasets") {
			notes = strings.Join(tb.Notes, " ")
		}
	}
	if !strings.Contains(notes, "A dataset with a single pool enters every resample") || !strings.Contains(notes, "m s at α = 0.5: d1") {
		t.Errorf("the per-α table over datasets does not name the single-pool dataset: %q", notes)
	}
	if row := rep.Headline()[0]; !row.EtaUCI.Defined || len(row.SinglePoolU) != 1 || row.SinglePoolU[0].Dataset != "d1" {
		t.Errorf("headline %+v: want an interval and d1 named", row)
	}
	if notes := strings.Join(rep.SummaryTable(nil).Notes, " "); !strings.Contains(notes, "A dataset with a single pool (d1)") {
		t.Errorf("summary notes: %q", notes)
	}
	// Two single-pool datasets: two pools in total, a (point) interval.
	two := Build([]ScoreRecord{rec("m", "s", "d1", 0.5, "A", "llm", "U", 0, 2, 5, 1), rec("m", "s", "d2", 0.5, "A", "llm", "U", 0, 5, 5, 1)}, nil)
	if c, _ := two.Macro("m", "s", 0.5, "A", "llm", "U"); !c.EtaCI.Defined || !near9(c.EtaCI.Lo, 0.625) || !near9(c.EtaCI.Hi, 0.625) {
		t.Errorf("two single pools: %+v", c.EtaCI)
	}
}

// TestDatasetWithNothingSolvableLeftOut reproduces the case: a
// dataset whose pools all have V_oracle = 0 for the solver scores η = 1 in
// every pool (the paper's convention) and lifted the mean over datasets to
// 0.263 where the solvable datasets gave −0.15 and −0.06. It is named and
// left out (SPEC §5); another solver that can score there keeps it.
func TestDatasetWithNothingSolvableLeftOut(t *testing.T) {
	var recs []ScoreRecord
	for _, regime := range []string{"U", "E"} {
		for pool := range 2 {
			// η = (V − 2)/(4 − 2): −0.15 on a, −0.06 on b.
			recs = append(recs,
				rec("m", "s", "a", 0.5, "default", "llm", regime, pool, 1.7, 4, 2),
				rec("m", "s", "b", 0.5, "default", "llm", regime, pool, 1.88, 4, 2),
				rec("m", "s", "zero", 0.5, "default", "llm", regime, pool, 0, 0, 0),
				rec("n", "s", "zero", 0.5, "default", "llm", regime, pool, 2, 2, 1))
		}
	}
	rep := Build(recs, nil)
	c, _ := rep.Macro("m", "s", 0.5, "default", "llm", "U")
	if !near9(c.Eta.Value, (-0.15-0.06)/2) || c.Eta.N != 4 || !slices.Equal(c.OracleZero, []string{"zero"}) || len(c.Missing) > 0 {
		t.Errorf("macro %+v: want η = −0.105 over 4 pools, zero left out", c)
	}
	if c.Degenerate.Total() != 0 || !c.EtaCI.Defined {
		t.Errorf("macro %+v: the left-out D1 pools still count, or no interval", c)
	}
	if c, _ := rep.Macro("n", "s", 0.5, "default", "llm", "U"); len(c.OracleZero) > 0 || !near9(c.Eta.Value, 1) {
		t.Errorf("solver n's macro %+v: zero has V_oracle > 0 for n and stays", c)
	}
	if cell := rep.Cells[slices.IndexFunc(rep.Cells, func(c Cell) bool { return c.Model == "m" && c.Dataset == "zero" })]; !OracleZeroOnly(cell) || cell.Degenerate.NoValue != 2 {
		t.Errorf("the per-dataset cell %+v still reports its D1 pools", cell)
	}
	row := rep.Headline()[0]
	if !slices.Equal(row.OracleZero, []string{"zero"}) {
		t.Errorf("headline %+v does not name the left-out dataset", row)
	}
	sum := rep.SummaryTable(nil)
	if !strings.Contains(sum.Rows[0][4], "-0.105") || !strings.Contains(sum.Rows[0][5], "(without zero: V_oracle = 0)") ||
		!strings.Contains(strings.Join(sum.Notes, " "), "because every pool there has V_oracle = 0") {
		t.Errorf("summary row %q, notes %q", sum.Rows[0], sum.Notes)
	}
	var md bytes.Buffer
	if err := rep.Markdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "(n=4; without zero (V_oracle = 0))") {
		t.Errorf("the table over datasets does not name the left-out dataset:\n%s", md.String())
	}
}

// TestDegeneratePoolsCountedEverywhere: a cell with D1, D2 and informative
// pools reports the counts and the informative mean with its interval in
// the cell, cells.csv, cells.json, pools.csv, the tables and the summary.
func TestDegeneratePoolsCountedEverywhere(t *testing.T) {
	var recs []ScoreRecord
	for _, regime := range []string{"U", "E"} {
		recs = append(recs,
			rec("m", "s", "d", 0.5, "default", "llm", regime, 0, 0, 0, 0), // D1: η = 1
			rec("m", "s", "d", 0.5, "default", "llm", regime, 1, 3, 3, 3), // D2: η = 1
			rec("m", "s", "d", 0.5, "default", "llm", regime, 2, 2, 3, 3), // D2: η = 0
			rec("m", "s", "d", 0.5, "default", "llm", regime, 3, 2, 4, 1), // η = 1/3
			rec("m", "s", "d", 0.5, "default", "llm", regime, 4, 4, 4, 1), // η = 1
			rec("m", "s", "d", 0.5, "default", "llm", regime, 5, 1, 4, 1), // η = 0
			excluded("m", "s", "d", 0.5, "default", "llm", regime, 6, "unparseable"))
	}
	rep := Build(recs, nil)
	c := rep.Cells[0]
	informative := []float64{1.0 / 3, 1, 0}
	if c.Degenerate != (metrics.DegenerateCounts{NoValue: 1, Collapse: 2}) || c.Eta.N != 6 || !near9(c.Eta.Value, (1+1+0+1.0/3+1+0)/6) {
		t.Errorf("cell %+v", c)
	}
	if c.Informative.N != 3 || !near9(c.Informative.Value, 4.0/9) || c.InformativeCI != (metrics.Bootstrap{}).MeanCI(informative) {
		t.Errorf("informative %+v %+v, want 4/9 over 3 with MeanCI of %v", c.Informative, c.InformativeCI, informative)
	}

	var cells, pools, js bytes.Buffer
	if err := rep.CSV(&cells); err != nil {
		t.Fatal(err)
	}
	if err := rep.PoolsCSV(&pools); err != nil {
		t.Fatal(err)
	}
	if err := rep.JSON(&js); err != nil {
		t.Fatal(err)
	}
	row := csvRows(t, &cells)[0]
	if row["degenerate_d1"] != "1" || row["degenerate_d2"] != "2" || row["eta_informative_n"] != "3" ||
		row["eta_informative"] != full(4.0/9) || row["eta_informative_lo"] != full(c.InformativeCI.Lo) || row["eta_informative_hi"] != full(c.InformativeCI.Hi) {
		t.Errorf("cells.csv row %v", row)
	}
	var flags []string
	for _, p := range csvRows(t, &pools) {
		if p["regime"] == "U" {
			flags = append(flags, p["degenerate"])
		}
	}
	if want := []string{"D1", "D2", "D2", "", "", "", ""}; !slices.Equal(flags, want) {
		t.Errorf("pools.csv degenerate %q, want %q", flags, want)
	}
	var doc struct {
		Cells []struct {
			Degenerate      map[string]int `json:"degenerate"`
			EtaInformative  *float64       `json:"eta_informative"`
			EtaInformativeN int            `json:"eta_informative_n"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if jc := doc.Cells[0]; jc.Degenerate["d1"] != 1 || jc.Degenerate["d2"] != 2 || jc.EtaInformative == nil || !near9(*jc.EtaInformative, 4.0/9) || jc.EtaInformativeN != 3 {
		t.Errorf("cells.json %+v", jc)
	}

	var md bytes.Buffer
	if err := rep.Markdown(&md); err != nil {
		t.Fatal(err)
	}
	inform := withCI(c.Informative, c.InformativeCI, c.informativeCIPools())
	if want := "(n=6; degenerate D1:1, D2:2; informative " + inform + " / " + inform + ", n=3)"; !strings.Contains(md.String(), want) {
		t.Errorf("tables lack %q:\n%s", want, md.String())
	}
	sum := rep.SummaryTable(nil)
	if !slices.Contains(sum.Header, "degenerate pools") || sum.Rows[0][6] != "D1:1, D2:2 of 6" || sum.Rows[0][7] != inform+" / "+inform ||
		!strings.Contains(strings.Join(sum.Notes, " "), "These η means include 3 degenerate pools of 6") {
		t.Errorf("summary %q / %q, notes %q", sum.Header, sum.Rows, sum.Notes)
	}
	// Without a degenerate pool the summary has no such columns.
	plain := Build(recs[3:6], nil).SummaryTable(nil)
	if slices.Contains(plain.Header, "degenerate pools") {
		t.Errorf("summary without degenerate pools: %q", plain.Header)
	}
}

// TestRandomSEMaxEmptyWhenNothingAveraged: random_se_max is empty (null)
// for a cell with no averaged pool, 0 for exact references, and the
// largest standard error otherwise.
func TestRandomSEMaxEmptyWhenNothingAveraged(t *testing.T) {
	mc := rec("m", "s", "mc", 0.5, "-", "random", "U", 0, 2, 4, 1)
	mc.RandomStderr = 0.02
	mc2 := rec("m", "s", "mc", 0.5, "-", "random", "U", 1, 2, 4, 1)
	mc2.RandomStderr = 0.05
	recs := []ScoreRecord{
		excluded("m", "s", "none", 0.5, "-", "random", "U", 0, "error"),
		rec("m", "s", "exact", 0.5, "-", "random", "U", 0, 2, 4, 1),
		mc, mc2,
	}
	rep := Build(recs, nil)
	var cells, js bytes.Buffer
	if err := rep.CSV(&cells); err != nil {
		t.Fatal(err)
	}
	if err := rep.JSON(&js); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, row := range csvRows(t, &cells) {
		got[row["dataset"]] = row["random_se_max"]
	}
	if want := map[string]string{"none": "", "exact": "0", "mc": "0.05"}; !mapsEqual(got, want) {
		t.Errorf("cells.csv random_se_max %v, want %v", got, want)
	}
	var doc struct {
		Cells []map[string]any `json:"cells"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, jc := range doc.Cells {
		v, ok := jc["random_se_max"]
		if !ok || (jc["dataset"] == "none") != (v == nil) {
			t.Errorf("cells.json %v: random_se_max %v", jc["dataset"], v)
		}
	}
	cellsTable := rep.CellsTable()
	col := slices.Index(cellsTable.Header, "rand s.e.")
	for _, row := range cellsTable.Rows {
		if want := map[string]string{"none": "—", "exact": "0.000", "mc": "0.050"}[row[2]]; row[col] != want {
			t.Errorf("cells table %s: rand s.e. %q, want %q", row[2], row[col], want)
		}
	}
	if m, _ := rep.Macro("m", "s", 0.5, "-", "random", "U"); !m.RandomSEMax.Defined || m.RandomSEMax.Value != 0.05 {
		t.Errorf("macro random_se_max %+v", m.RandomSEMax)
	}
}

// TestTitlesOmitNoVariant: strategies without a prompt are named without
// a variant in every title (no "variant -").
func TestTitlesOmitNoVariant(t *testing.T) {
	recs, acc := fixture()
	rep := Build(recs, acc)
	for _, tb := range append(rep.Tables(), rep.CellsTable(), rep.SummaryTable(nil)) {
		if strings.Contains(tb.Title, "variant -") {
			t.Errorf("title %q", tb.Title)
		}
	}
	if got := ScopePhrase("random", vocab.NoVariant); got != "strategy random" {
		t.Errorf("ScopePhrase = %q", got)
	}
	if got := ScopePhrase("llm", "B"); got != "strategy llm, variant B" {
		t.Errorf("ScopePhrase = %q", got)
	}
}

// TestSummaryExplainsReferenceStrategies: with reference strategies in the
// summary (no llm), its notes explain how the random strategy differs from
// the random reference and why D = 0 for reference strategies.
func TestSummaryExplainsReferenceStrategies(t *testing.T) {
	recs, acc := fixture()
	var refs []ScoreRecord
	for _, r := range recs {
		if r.Strategy != string(vocab.LLM) {
			refs = append(refs, r)
		}
	}
	for i := range 2 {
		ratio := 0.5
		d, w := 0.0, 0.4
		r := rec("gpt_x", "standard", "gpqa", 0.5, string(vocab.NoVariant), string(vocab.Random), "U", i, 2, 4, 1)
		r.Source, r.Ratio, r.Injected, r.Detection, r.Waste = "gpqa-abstain", &ratio, 5, &d, &w
		refs = append(refs, r)
	}
	notes := strings.Join(Build(refs, acc).SummaryTable(nil).Notes, " ")
	for _, want := range []string{
		"The random strategy is not the random reference: it is one seeded random plan per pool",
		"the expected regime-U value of attempting every problem in a random order, over many seeded shuffles (1,000 by default)",
		"D = 0 for the reference strategies (random, shortest_first, all_in_order)",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("summary notes lack %q:\n%s", want, notes)
		}
	}
	// With llm rows only, neither note.
	if notes := strings.Join(Build(recs, acc).SummaryTable(nil).Notes, " "); strings.Contains(notes, "random strategy") || strings.Contains(notes, "D = 0") {
		t.Errorf("llm summary explains reference strategies it does not show: %s", notes)
	}
}

// TestMacroMatchesBruteForce: over random layouts (datasets with 0 to 4
// pools, some all D1, some excluded), the macro mean, its counts and the
// datasets it names agree with a direct computation from the records.
func TestMacroMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		var recs []ScoreRecord
		type ds struct {
			etas       []float64
			d1, d2     int
			oracleZero bool
		}
		var want []ds
		for d := range 1 + rng.IntN(4) {
			name := string(rune('a' + d))
			var got ds
			n := rng.IntN(5)
			zero := rng.IntN(4) == 0
			for pool := range n {
				if rng.IntN(6) == 0 {
					recs = append(recs, excluded("m", "s", name, 0.5, "A", "llm", "U", pool, "error"))
					continue
				}
				o, r, v := 4.0, 1.0, float64(rng.IntN(5))
				switch {
				case zero:
					o, r, v = 0, 0, 0
				case rng.IntN(5) == 0:
					r, v = 4, float64(3+rng.IntN(2))
				}
				recs = append(recs, rec("m", "s", name, 0.5, "A", "llm", "U", pool, v, o, r))
				s := metrics.Score(v, o, r)
				got.etas = append(got.etas, s.Eta)
				switch s.Degenerate {
				case metrics.DegenerateNoValue:
					got.d1++
				case metrics.DegenerateCollapse:
					got.d2++
				}
			}
			got.oracleZero = len(got.etas) > 0 && got.d1 == len(got.etas)
			want = append(want, got)
			if n == 0 {
				recs = append(recs, excluded("m", "s", name, 0.5, "A", "llm", "U", 0, "missing"))
			}
		}
		c, ok := Build(recs, nil).Macro("m", "s", 0.5, "A", "llm", "U")
		if !ok {
			t.Fatalf("trial %d: no macro", trial)
		}
		var sum float64
		var k, n int
		var zeros, missing []string
		var deg metrics.DegenerateCounts
		for i, d := range want {
			name := string(rune('a' + i))
			switch {
			case d.oracleZero:
				zeros = append(zeros, name)
			case len(d.etas) == 0:
				missing = append(missing, name)
			default:
				var s float64
				for _, e := range d.etas {
					s += e
				}
				sum += s / float64(len(d.etas))
				k++
				n += len(d.etas)
				deg = deg.Add(metrics.DegenerateCounts{NoValue: d.d1, Collapse: d.d2})
			}
		}
		if (k > 0) != c.Eta.Defined || (k > 0 && !near9(c.Eta.Value, sum/float64(k))) || c.Eta.N != n ||
			!slices.Equal(c.OracleZero, zeros) || !slices.Equal(c.Missing, missing) || c.Degenerate != deg {
			t.Fatalf("trial %d: macro %+v (zero %v missing %v deg %+v), want mean %v/%d over %d pools, zero %v, missing %v, deg %+v",
				trial, c.Eta, c.OracleZero, c.Missing, c.Degenerate, sum, k, n, zeros, missing, deg)
		}
		if c.EtaCI.Defined != (n >= 2) {
			t.Fatalf("trial %d: interval %+v over %d pools", trial, c.EtaCI, n)
		}
	}
}

// csvRows reads a CSV with a header into one map per row.
func csvRows(t *testing.T, b *bytes.Buffer) []map[string]string {
	t.Helper()
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

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
