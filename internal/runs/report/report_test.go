package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/metrics"
)

func near9(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// rec returns an included record of a cell with the given values.
func rec(model, mode, dataset string, alpha float64, variant, strategy, regime string, pool int, v, o, r float64) ScoreRecord {
	s := metrics.Score(v, o, r)
	return ScoreRecord{
		Model: model, Mode: mode, Dataset: dataset, Alpha: alpha, Variant: variant, Strategy: strategy,
		Regime: regime, Pool: pool, Value: v, Oracle: o, Random: r,
		Eta: &s.Eta, Regret: s.Regret, RegretDefined: s.RegretDefined,
	}
}

func excluded(model, mode, dataset string, alpha float64, variant, strategy, regime string, pool int, why string) ScoreRecord {
	return ScoreRecord{
		Model: model, Mode: mode, Dataset: dataset, Alpha: alpha, Variant: variant, Strategy: strategy,
		Regime: regime, Pool: pool, Excluded: why,
	}
}

// TestBuildHandComputed checks one cell's numbers against a hand
// computation:
//
//	pool 0: V=2, O=4, R=1 → η = 1/3, R̃ = 1/2
//	pool 1: V=3, O=3, R=1 → η = 1,   R̃ = 0
//	pool 3: V=O=R=0       → η = 1 (boundary convention), R̃ undefined
//	pools 2, 4, 5 excluded: unparseable, error, error
//
// so η = (1/3 + 1 + 1)/3 = 7/9 over 3 pools, R̃ = 1/4 over 2, one pool
// without R̃, 6 pools in all; base accuracy (5+7)/(20+20) = 0.3.
func TestBuildHandComputed(t *testing.T) {
	cell := func(pool int, v, o, r float64) ScoreRecord {
		return rec("m", "standard", "d", 0.5, "A", "llm", "U", pool, v, o, r)
	}
	ex := func(pool int, why string) ScoreRecord {
		return excluded("m", "standard", "d", 0.5, "A", "llm", "U", pool, why)
	}
	recs := []ScoreRecord{ex(5, "error"), cell(3, 0, 0, 0), cell(1, 3, 3, 1), ex(2, "unparseable"), cell(0, 2, 4, 1), ex(4, "error")}
	acc := []Accuracy{
		{Model: "m", Mode: "standard", Dataset: "d", Correct: 5, Gradeable: 20},
		{Model: "m", Mode: "standard", Dataset: "d", Correct: 7, Gradeable: 20},
		{Model: "m", Mode: "extended", Dataset: "d", Correct: 1, Gradeable: 0},
	}
	rep := Build(recs, acc)
	if len(rep.Cells) != 1 {
		t.Fatalf("got %d cells, want 1", len(rep.Cells))
	}
	c := rep.Cells[0]
	if c.Pools != 6 || c.Eta.N != 3 || !c.Eta.Defined || !near9(c.Eta.Value, 7.0/9) {
		t.Errorf("η = %+v over %d pools, want 7/9 over 3 of 6", c.Eta, c.Pools)
	}
	if c.Regret.N != 2 || !c.Regret.Defined || !near9(c.Regret.Value, 0.25) || c.RegretUndefined != 1 {
		t.Errorf("R̃ = %+v, undefined %d; want 0.25 over 2, 1 undefined", c.Regret, c.RegretUndefined)
	}
	want := []metrics.ReasonCount{{Reason: "error", Count: 2}, {Reason: "unparseable", Count: 1}}
	if !slices.Equal(c.Excluded, want) {
		t.Errorf("excluded = %v, want %v", c.Excluded, want)
	}
	if !c.BaseAccuracy.Defined || !near9(c.BaseAccuracy.Value, 0.3) || c.BaseAccuracy.N != 40 {
		t.Errorf("base accuracy = %+v, want 0.3 over 40", c.BaseAccuracy)
	}
	if c.StoredMismatch != 0 {
		t.Errorf("stored mismatch = %d, want 0", c.StoredMismatch)
	}
	if len(rep.Accuracy) != 2 || rep.Accuracy[0].Mode != "extended" || rep.Accuracy[0].Accuracy.Defined {
		t.Errorf("accuracy rows = %+v, want extended (undefined) then standard", rep.Accuracy)
	}
}

func TestBuildRecomputesAndFlagsStoredScores(t *testing.T) {
	r := rec("m", "standard", "d", 0.5, "A", "llm", "U", 0, 2, 4, 1)
	stale := 0.9
	r.Eta, r.Regret = &stale, 0.9 // stale
	ok := rec("m", "standard", "d", 0.5, "A", "llm", "U", 1, 4, 4, 1)
	c := Build([]ScoreRecord{r, ok}, nil).Cells[0]
	if !near9(c.Eta.Value, (1.0/3+1)/2) || c.StoredMismatch != 1 {
		t.Errorf("η = %v, mismatch %d; want the recomputed 2/3 and 1 mismatch", c.Eta.Value, c.StoredMismatch)
	}
}

func TestBuildDuplicatePoolKeepsFirst(t *testing.T) {
	first := rec("m", "standard", "d", 0.5, "A", "llm", "U", 0, 2, 4, 1)  // η = 1/3
	second := rec("m", "standard", "d", 0.5, "A", "llm", "U", 0, 4, 4, 1) // η = 1
	c := Build([]ScoreRecord{first, second}, nil).Cells[0]
	if c.Pools != 2 || c.Eta.N != 1 || !near9(c.Eta.Value, 1.0/3) {
		t.Errorf("cell = %+v, want η = 1/3 from the first record", c)
	}
	if want := []metrics.ReasonCount{{Reason: ExcludedDuplicate, Count: 1}}; !slices.Equal(c.Excluded, want) {
		t.Errorf("excluded = %v, want %v", c.Excluded, want)
	}
}

func TestBuildGroupsAndSorts(t *testing.T) {
	var recs []ScoreRecord
	for _, model := range []string{"z", "a"} {
		for _, alpha := range []float64{1, 0.25, 0.5} {
			for _, regime := range []string{"E", "U"} {
				for _, v := range []string{"B", "A"} {
					recs = append(recs,
						rec(model, "standard", "d", alpha, v, "llm", regime, 1, 1, 2, 0),
						rec(model, "standard", "d", alpha, v, "llm", regime, 0, 2, 2, 0))
				}
			}
		}
	}
	rep := Build(recs, nil)
	if len(rep.Cells) != 2*3*2*2 {
		t.Fatalf("got %d cells, want 24", len(rep.Cells))
	}
	var got []string
	for _, c := range rep.Cells[:6] {
		got = append(got, c.Model+" "+alphaText(c.Alpha)+" "+string(c.Variant)+" "+string(c.Regime))
		if c.Pools != 2 || !near9(c.Eta.Value, 0.75) {
			t.Errorf("%+v: want 2 pools, η = (1/2 + 1)/2", c)
		}
	}
	want := []string{"a 0.25 A U", "a 0.25 A E", "a 0.25 B U", "a 0.25 B E", "a 0.5 A U", "a 0.5 A E"}
	if !slices.Equal(got, want) {
		t.Errorf("order = %q, want %q", got, want)
	}
}

func TestMacro(t *testing.T) {
	recs := []ScoreRecord{
		rec("m", "s", "d1", 0.5, "A", "llm", "U", 0, 0.2, 1, 0),
		rec("m", "s", "d2", 0.5, "A", "llm", "U", 0, 0.5, 1, 0),
		rec("m", "s", "d2", 0.5, "A", "llm", "U", 1, 0.7, 1, 0),
		excluded("m", "s", "d2", 0.5, "A", "llm", "U", 2, "error"),
		rec("n", "s", "d1", 0.5, "A", "llm", "U", 0, 0.2, 1, 0), // no d2 cell
	}
	rep := Build(recs, nil)
	c, ok := rep.Macro("m", "s", 0.5, "A", "llm", "U")
	if !ok || !c.Eta.Defined || !near9(c.Eta.Value, 0.4) || c.Eta.N != 3 || c.Pools != 4 || c.Dataset != AllDatasets {
		t.Errorf("macro = %+v, want η = (0.2 + 0.6)/2 over 3 pools of 4", c)
	}
	if want := []metrics.ReasonCount{{Reason: "error", Count: 1}}; !slices.Equal(c.Excluded, want) {
		t.Errorf("macro excluded = %v, want %v", c.Excluded, want)
	}
	if len(c.Missing) != 0 {
		t.Errorf("macro missing = %v, want none", c.Missing)
	}
	// n has no d2 cell: its macro averages d1 alone, says so, and is left
	// out of comparisons across solvers.
	c, ok = rep.Macro("n", "s", 0.5, "A", "llm", "U")
	if !ok || !c.Eta.Defined || !near9(c.Eta.Value, 0.2) || c.Eta.N != 1 || !slices.Equal(c.Missing, []string{"d2"}) {
		t.Errorf("macro without d2 = %+v, %v; want η = 0.2 over 1 pool, missing d2", c, ok)
	}
	if comparableEta(c).Defined {
		t.Error("a macro mean without d2 is comparable")
	}
	// A dataset whose only pool is excluded is missing too, and its pool
	// still counts.
	rep = Build(append(recs, excluded("n", "s", "d2", 0.5, "A", "llm", "U", 0, "unparseable")), nil)
	c, _ = rep.Macro("n", "s", 0.5, "A", "llm", "U")
	if c.Pools != 2 || c.Eta.N != 1 || !slices.Equal(c.Missing, []string{"d2"}) {
		t.Errorf("macro with d2 all excluded = %+v; want 2 pools, η over 1, missing d2", c)
	}
	if _, ok := rep.Macro("x", "s", 0.5, "A", "llm", "U"); ok {
		t.Error("macro of an absent solver reported ok")
	}
}

// TestSensitivityHandComputed: four solvers, variants A and B, one dataset:
//
//	solver   η_A  η_B
//	m1/ext   0.1  0.1
//	m1/std   0.2  0.3
//	m2/ext   0.3  0.2
//	m2/std   0.4  0.4
//
// Of the 6 pairs only (m1/std, m2/ext) is discordant, so τ_b = (5 − 1)/6 =
// 2/3; the ranges are 0, 0.1, 0.1, 0. Variant C exists for m1/ext only
// (η = 0.5): its range becomes 0.4 and the pairs with C rank one solver, so
// their τ_b is undefined.
func TestSensitivityHandComputed(t *testing.T) {
	eta := map[string][2]float64{"m1/ext": {0.1, 0.1}, "m1/std": {0.2, 0.3}, "m2/ext": {0.3, 0.2}, "m2/std": {0.4, 0.4}}
	var recs []ScoreRecord
	for s, e := range eta {
		model, mode, _ := strings.Cut(s, "/")
		recs = append(recs,
			rec(model, mode, "d", 0.5, "A", "llm", "U", 0, e[0], 1, 0),
			rec(model, mode, "d", 0.5, "B", "llm", "U", 0, e[1], 1, 0))
	}
	recs = append(recs,
		rec("m1", "ext", "d", 0.5, "C", "llm", "U", 0, 0.5, 1, 0),
		rec("m1", "ext", "d", 0.5, "-", "random", "U", 0, 0.5, 1, 0))
	sens := Build(recs, nil).Sensitivity()

	var ranks []RankAgreement
	for _, ra := range sens.Ranks {
		if ra.Dataset == "d" {
			ranks = append(ranks, ra)
		}
	}
	if len(ranks) != 3 {
		t.Fatalf("ranks = %+v, want pairs AB, AC, BC", ranks)
	}
	if ab := ranks[0]; ab.A != "A" || ab.B != "B" || !ab.Defined || !near9(ab.Tau, 2.0/3) || ab.Solvers != 4 {
		t.Errorf("τ(A, B) = %+v, want 2/3 over 4 solvers", ab)
	}
	for _, ra := range ranks[1:] {
		if ra.Defined || ra.Solvers != 1 || ra.Undefined != "fewer than 2 solvers" {
			t.Errorf("τ(%s, %s) = %+v, want undefined over 1 solver", ra.A, ra.B, ra)
		}
	}

	wantRange := map[string]float64{"m1/ext": 0.4, "m1/std": 0.1, "m2/ext": 0.1, "m2/std": 0}
	n := 0
	for _, vr := range sens.Ranges {
		if vr.Strategy != "llm" {
			t.Errorf("range for strategy %q: a single variant has no range", vr.Strategy)
		}
		if vr.Dataset != "d" {
			continue
		}
		n++
		s := vr.Model + "/" + vr.Mode
		if !vr.Defined || !near9(vr.Range, wantRange[s]) {
			t.Errorf("range of %s = %v (defined %v), want %v", s, vr.Range, vr.Defined, wantRange[s])
		}
		if wantN := 2 + btoi(s == "m1/ext"); len(vr.Variants) != wantN || vr.Compared != wantN {
			t.Errorf("%s: variants %+v, want %d", s, vr.Variants, wantN)
		}
	}
	if n != 4 {
		t.Errorf("got %d ranges for dataset d, want 4", n)
	}
	// With one dataset, the macro-average rows repeat the dataset's.
	for _, ra := range sens.Ranks {
		if ra.Dataset == AllDatasets && ra.A == "A" && ra.B == "B" && !near9(ra.Tau, 2.0/3) {
			t.Errorf("macro τ(A, B) = %v, want 2/3", ra.Tau)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestSensitivityAllTies(t *testing.T) {
	var recs []ScoreRecord
	for _, m := range []string{"m1", "m2", "m3"} {
		recs = append(recs,
			rec(m, "s", "d", 1, "A", "llm", "E", 0, 1, 1, 1), // η = 1 for all
			rec(m, "s", "d", 1, "B", "llm", "E", 0, 1, 1, 1))
	}
	for _, ra := range Build(recs, nil).Sensitivity().Ranks {
		if ra.Defined || ra.Undefined != "a ranking is all ties" || ra.Solvers != 3 {
			t.Errorf("rank = %+v, want undefined: all ties", ra)
		}
	}
}

func TestTeXEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`a_b%c&d#e$f{g}h~i^j\k`, `a\_b\%c\&d\#e\$f\{g\}h\textasciitilde{}i\textasciicircum{}j\textbackslash{}k`},
		{"x<y>z|w", `x\textless{}y\textgreater{}z\textbar{}w`},
		{"η_U / η_E", `$\eta_U$ / $\eta_E$`},
		{"R̃_U / R̃_E; R̃", `$\tilde{R}_U$ / $\tilde{R}_E$; $\tilde{R}$`},
		{"τ_b(A, B)", `$\tau_b$(A, B)`},
		{"V_oracle > 0", `$V_\mathrm{oracle}$ \textgreater{} 0`},
		{"-0.130 / 1.000 (n=3)", `$-$0.130 / 1.000 (n=3)`},
		{"0.2 / -1.5", `0.2 / $-$1.5`},
		{"qwen-2.5", "qwen-2.5"},
		{"a--b", "a-{}-b"},
		{"α=0.5: x", `$\alpha$=0.5: x`},
		{"ηα", `$\eta${}$\alpha$`},
		{"$η", `\${}$\eta$`},
		{"— (n=0)", "--- (n=0)"},
		{"0.5 [0.1, 0.9]†", `0.5 [0.1, 0.9]\textdagger{}`},
		{"variant -", "variant -"},
		{"line\nbreak", "line break"},
	} {
		if got := TeXEscape(tc.in); got != tc.want {
			t.Errorf("TeXEscape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, tok := range texTokens {
		if got := TeXEscape(tok.plain); got != tok.tex {
			t.Errorf("TeXEscape(%q) = %q, want %q", tok.plain, got, tok.tex)
		}
	}
}

// TestLaTeXStructure renders a report with hostile names and checks that
// every tabular is balanced, uses booktabs, and has the right number of
// unescaped column separators on each row.
func TestLaTeXStructure(t *testing.T) {
	recs := []ScoreRecord{
		rec("m&1_%#", "std~^", "d$x{}", 0.5, "A", "llm", "U", 0, 1, 2, 0),
		rec("m&1_%#", "std~^", "d$x{}", 0.5, "B", "llm", "U", 0, 1, 2, 0),
		rec("m&1_%#", "std~^", "d$x{}", 0.5, "A", "llm", "E", 0, 1, 2, 0),
		excluded("m&1_%#", "std~^", "d$x{}", 0.5, "B", "llm", "E", 0, "un&parse_able"),
	}
	var buf bytes.Buffer
	if err := Build(recs, []Accuracy{{Model: "m&1_%#", Mode: "std~^", Dataset: "d$x{}", Correct: 1, Gradeable: 2}}).LaTeX(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, `m\&1\_\%\#`) || !strings.Contains(out, `un\&parse\_able:0/1`) {
		t.Errorf("names not escaped:\n%s", out)
	}
	begins, ends := strings.Count(out, `\begin{tabular}`), strings.Count(out, `\end{tabular}`)
	if begins == 0 || begins != ends || strings.Count(out, `\toprule`) != begins ||
		strings.Count(out, `\midrule`) != begins || strings.Count(out, `\bottomrule`) != begins {
		t.Errorf("unbalanced tabulars (%d begin, %d end):\n%s", begins, ends, out)
	}
	cols := 0
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, `\begin{tabular}{`):
			cols = len(strings.TrimSuffix(strings.TrimPrefix(line, `\begin{tabular}{`), "}"))
		case strings.HasSuffix(line, `\\`):
			if got := strings.Count(line, "&") - strings.Count(line, `\&`); got != cols-1 {
				t.Errorf("row has %d separators, want %d: %s", got, cols-1, line)
			}
			if strings.Count(strings.ReplaceAll(line, `\$`, ""), "$")%2 != 0 {
				t.Errorf("unbalanced math: %s", line)
			}
		case strings.HasPrefix(line, "%"), line == "", strings.HasPrefix(line, `\`):
		default:
			t.Errorf("unexpected line: %q", line)
		}
	}
}

// TestUndefinedRendering: a cell whose pools are all excluded shows "—" in
// Markdown and LaTeX, an empty field in CSV and null in JSON.
func TestUndefinedRendering(t *testing.T) {
	recs := []ScoreRecord{
		excluded("m|x", "s", "d", 0.5, "A", "llm", "U", 0, "unparseable"),
		excluded("m|x", "s", "d", 0.5, "A", "llm", "U", 1, "error"),
		excluded("m|x", "s", "d", 0.5, "A", "llm", "E", 0, "unparseable"),
		excluded("m|x", "s", "d", 0.5, "A", "llm", "E", 1, "error"),
	}
	rep := Build(recs, nil)

	var md bytes.Buffer
	if err := rep.Markdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), `| m\|x  | s    | — / — (n=0) | d: error:1, unparseable:1 |`) {
		t.Errorf("markdown:\n%s", md.String())
	}

	var tex bytes.Buffer
	if err := rep.LaTeX(&tex); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tex.String(), `m\textbar{}x & s & --- / --- (n=0) & d: error:1, unparseable:1 \\`) {
		t.Errorf("latex:\n%s", tex.String())
	}

	var c bytes.Buffer
	if err := rep.CSV(&c); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&c).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := rows[0]
	for _, row := range rows[1:] {
		get := func(col string) string { return row[slices.Index(head, col)] }
		if get("eta") != "" || get("regret") != "" || get("eta_n") != "0" || get("pools") != "2" ||
			get("excluded") != "error:1;unparseable:1" || get("excluded_n") != "2" || get("base_accuracy") != "" {
			t.Errorf("csv row %v", row)
		}
	}

	var j bytes.Buffer
	if err := rep.JSON(&j); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cells []map[string]any `json:"cells"`
	}
	if err := json.Unmarshal(j.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, cell := range doc.Cells {
		for _, k := range []string{"eta", "regret", "base_accuracy"} {
			if v, ok := cell[k]; !ok || v != nil {
				t.Errorf("json %s = %v (present %v), want null", k, v, ok)
			}
		}
		if ex, _ := cell["excluded"].(map[string]any); ex["error"] != 1.0 || ex["unparseable"] != 1.0 {
			t.Errorf("json excluded = %v", cell["excluded"])
		}
	}
}

func TestFormatting(t *testing.T) {
	if got := fmt3(-0.0004); got != "0.000" {
		t.Errorf("fmt3(-0.0004) = %q, want no negative zero", got)
	}
	if got := fixed3(metrics.Mean{}); got != "—" {
		t.Errorf("undefined = %q", got)
	}
	u := []metrics.ReasonCount{{Reason: "error", Count: 1}, {Reason: "unparseable", Count: 2}}
	e := []metrics.ReasonCount{{Reason: "unparseable", Count: 2}, {Reason: "missing", Count: 1}}
	if got, want := pairReasons(u, e), "error:1/0, missing:0/1, unparseable:2"; got != want {
		t.Errorf("pairReasons = %q, want %q", got, want)
	}
	if got := mdEscape(`a|b*c\d`); got != `a\|b\*c\\d` {
		t.Errorf("mdEscape = %q", got)
	}
	if width("R̃_U") != 3 {
		t.Errorf("width(R̃_U) = %d, want 3", width("R̃_U"))
	}
}

func TestWriteDirCreatesNestedDir(t *testing.T) {
	dir := t.TempDir() + "/a/b"
	if err := Build(nil, nil).WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Build(nil, nil).JSON(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"cells": []`) || !strings.Contains(buf.String(), `"ranks": []`) {
		t.Errorf("empty report JSON should hold empty lists:\n%s", buf.String())
	}
}

func TestHeadline(t *testing.T) {
	recs, acc := fixture()
	rep := Build(recs, acc)
	rows := rep.Headline()
	// The fixture has llm cells: one row per solver for llm, variant A.
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4: %+v", len(rows), rows)
	}
	for _, row := range rows {
		if row.Strategy != "llm" || row.Variant != "A" || row.Alpha != 0.5 {
			t.Errorf("row %+v: want llm, variant A, α = 0.5", row)
		}
		m, _ := rep.Macro(row.Model, row.Mode, 0.5, "A", "llm", "U")
		if row.EtaU != m.Eta {
			t.Errorf("%s/%s: η_U %+v, macro %+v", row.Model, row.Mode, row.EtaU, m.Eta)
		}
		if row.EtaU.Defined && row.EtaUCI.Defined && !(row.EtaUCI.Lo <= row.EtaU.Value && row.EtaU.Value <= row.EtaUCI.Hi) {
			t.Errorf("%s/%s: η_U %v outside its interval %+v", row.Model, row.Mode, row.EtaU.Value, row.EtaUCI)
		}
	}
	gptStd := rows[slices.IndexFunc(rows, func(r HeadlineRow) bool { return r.Model == "gpt_x" && r.Mode == "standard" })]
	if !gptStd.Accuracy.Defined || gptStd.Accuracy.N != 60 || !near9(gptStd.Accuracy.Value, 15.0/60) {
		t.Errorf("gpt_x standard pooled accuracy %+v, want 15/60", gptStd.Accuracy)
	}
	// Injection headline at r = 0.5: gpt_x standard's D = 0.85, W = 0.1.
	if gptStd.Ratio != 0.5 || !near9(gptStd.Detection.Value, 0.85) || !near9(gptStd.Waste.Value, 0.1) {
		t.Errorf("gpt_x standard injection headline r=%v D %+v W %+v", gptStd.Ratio, gptStd.Detection, gptStd.Waste)
	}
}

// TestComparisonsArePaired: only the pools both solvers scored enter the
// difference, pool by pool.
func TestComparisonsArePaired(t *testing.T) {
	recs := []ScoreRecord{
		rec("a", "s", "d", 0.5, "A", "llm", "U", 0, 2, 4, 0), // η 0.5
		rec("a", "s", "d", 0.5, "A", "llm", "U", 1, 4, 4, 0), // η 1
		rec("a", "s", "d", 0.5, "A", "llm", "U", 2, 1, 4, 0), // η 0.25, b lacks pool 2
		rec("b", "s", "d", 0.5, "A", "llm", "U", 0, 1, 4, 0), // η 0.25
		rec("b", "s", "d", 0.5, "A", "llm", "U", 1, 3, 4, 0), // η 0.75
		excluded("b", "s", "d", 0.5, "A", "llm", "U", 2, "error"),
		rec("b", "s", "d", 0.5, "A", "llm", "U", 3, 3, 4, 0), // a lacks pool 3
	}
	rep := Build(recs, nil)
	if len(rep.Comparisons) != 1 {
		t.Fatalf("%d comparisons, want 1", len(rep.Comparisons))
	}
	c := rep.Comparisons[0]
	if c.ModelA != "a" || c.ModelB != "b" || c.Diff.N != 2 || !near9(c.Diff.Value, 0.25) {
		t.Errorf("comparison %+v: want a − b = 0.25 over pools 0 and 1", c)
	}
	// Both paired differences are 0.25: the interval is a point.
	if !c.CI.Defined || !near9(c.CI.Lo, 0.25) || !near9(c.CI.Hi, 0.25) {
		t.Errorf("interval %+v, want [0.25, 0.25]", c.CI)
	}
	// Their SD is 0: nothing to overcome, MDD 0 and the fewest pools, 2.
	if want := (metrics.Power{N: 2, Defined: true, PoolsNeeded: 2}); c.Power != want {
		t.Errorf("power %+v, want %+v", c.Power, want)
	}
}
