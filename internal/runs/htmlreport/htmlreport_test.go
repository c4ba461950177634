package htmlreport

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/runs/figures"
	"github.com/triage-eval/triage/internal/runs/report"
)

// render writes in and returns the page.
func render(t *testing.T, in Input) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, in); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return buf.String()
}

// sections splits a page into its <section> elements by id.
func sections(t *testing.T, page string) map[string]string {
	t.Helper()
	out := map[string]string{}
	parts := strings.Split(page, `<section id="`)
	for _, p := range parts[1:] {
		id, body, ok := strings.Cut(p, `"`)
		if !ok {
			t.Fatalf("malformed section: %.60q", p)
		}
		body, _, _ = strings.Cut(body, "</section>")
		out[id] = body
	}
	return out
}

// TestPagePlacesFiguresBesideTheirTables counts, section by section, the
// figures and tables of the fixture's page, and checks that every figure
// appears once with its caption and every report table appears in the
// collapsed list.
func TestPagePlacesFiguresBesideTheirTables(t *testing.T) {
	in := fixtureInput(t)
	page := render(t, in)
	secs := sections(t, page)
	want := []struct {
		id              string
		figures, tables int
	}{
		{"summary", 0, 1},      // report.SummaryTable
		{"efficiency", 2, 2},   // η and R̃ at α = 0.5
		{"heatmaps", 3, 4},     // accuracy; per-α over datasets, aime, gpqa
		{"injection", 1, 2},    // D / W and η by ratio
		{"budget-aware", 2, 1}, // the re-solve table
		{"why", 2, 2},          // figures 6 and 7 beside the loss and self-knowledge tables
		{"all-tables", 0, len(in.Report.Tables()) + 1},
	}
	for _, w := range want {
		body, ok := secs[w.id]
		if !ok {
			t.Errorf("no section %q", w.id)
			continue
		}
		if got := strings.Count(body, "<figure "); got != w.figures {
			t.Errorf("section %s: %d figures, want %d", w.id, got, w.figures)
		}
		if got := strings.Count(body, "<table "); got != w.tables {
			t.Errorf("section %s: %d tables, want %d", w.id, got, w.tables)
		}
	}
	if _, ok := secs["other-figures"]; ok {
		t.Error("every fixture figure has a place; no \"other figures\" section expected")
	}
	for _, f := range in.Figures {
		if n := strings.Count(page, `<figure id="fig-`+slug(f.Name)+`"`); n != 1 {
			t.Errorf("figure %s appears %d times", f.Name, n)
		}
		caption := escapedText(f.Caption)
		if !strings.Contains(page, caption) {
			t.Errorf("figure %s: caption missing", f.Name)
		}
	}
	for _, tb := range append(in.Report.Tables(), in.Report.CellsTable()) {
		if !strings.Contains(secs["all-tables"], "<summary>"+escapedText(tb.Title)+"</summary>") {
			t.Errorf("table %q is not in the collapsed list", tb.Title)
		}
	}
	if got, want := strings.Count(page, "<details>"), len(in.Report.Tables())+1; got != want {
		t.Errorf("%d <details>, want %d (closed by default: none open)", got, want)
	}
	if strings.Contains(page, "<details open") {
		t.Error("a table list starts open")
	}
}

// escapedText escapes s as html/template escapes element content.
func escapedText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '"':
			b.WriteString("&#34;")
		case '\'':
			b.WriteString("&#39;")
		case '+':
			b.WriteString("&#43;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestSummary checks the opening table: the report's summary with each
// solver's budget-aware headline taken from its over-all-datasets row.
func TestSummary(t *testing.T) {
	in := fixtureInput(t)
	s, ok := summary(in.Report, in.BudgetAware)
	if !ok {
		t.Fatal("no summary")
	}
	var header []string
	for _, h := range s.Header {
		header = append(header, h.Text)
	}
	for _, want := range []string{"η_U at α = 0.5 [95% CI]", "η_E at α = 0.5 [95% CI]", "D / W at r = 0.5", "budget-aware acc", "compliance (all / finished)"} {
		if !slices.Contains(header, want) {
			t.Errorf("summary header %q lacks %q", header, want)
		}
	}
	var std []string
	for _, r := range s.Rows {
		if r[0].Text == "alpha-7b" && r[1].Text == "standard" {
			for _, c := range r {
				std = append(std, c.Text)
			}
		}
	}
	if !slices.Contains(std, "0.400 → 0.450 (n=40)") || !slices.Contains(std, "0.325 / 0.316") {
		t.Errorf("alpha-7b standard: %q, want the over-all-datasets re-solve 0.400 → 0.450 (n=40), 0.325 / 0.316", std)
	}
	// The α `triage report --alpha` asks for, not the headline's.
	if s1, _ := summary(fixtureInputAt(t, 1).Report, in.BudgetAware); s1.Header[4].Text != "η_U at α = 1 [95% CI]" {
		t.Errorf("summary at α = 1: header %q", s1.Header[4].Text)
	}
	if _, ok := summary(report.Build(nil, nil), in.BudgetAware); ok {
		t.Error("a report without cells has a summary")
	}
}

// TestPageShowsDegeneratePools: at α = 1 every pool is D2 (V_oracle =
// V_random); the page's summary at that α counts them and says the means
// include them, and the η tables count them too (SPEC §5).
func TestPageShowsDegeneratePools(t *testing.T) {
	in := fixtureInputAt(t, 1)
	page := render(t, in)
	secs := sections(t, page)
	for _, want := range []string{"degenerate pools", "D2:6 of 6", "These η means include 18 degenerate pools of 18", "informative η_U / η_E [95% CI]"} {
		if !strings.Contains(secs["summary"], escapedText(want)) {
			t.Errorf("summary lacks %q:\n%s", want, secs["summary"])
		}
	}
	if !strings.Contains(secs["all-tables"], escapedText("(n=3; degenerate D2:3, no informative pool)")) {
		t.Error("the η tables do not count the degenerate pools")
	}
	if secs := sections(t, render(t, fixtureInput(t))); strings.Contains(secs["summary"], "degenerate") {
		t.Errorf("summary at α = 0.5, with no degenerate pool, mentions them:\n%s", secs["summary"])
	}
}

// TestPageEscapesText feeds markup through every text the page shows:
// none of it may reach the page as markup.
func TestPageEscapesText(t *testing.T) {
	evil := `<script>alert("x")</script>`
	recs := []report.ScoreRecord{
		scored(report.ScoreRecord{Model: evil, Mode: "standard", Dataset: "d<b>", Pool: 0, Alpha: 0.5, Variant: "default", Strategy: "llm", Regime: "U", Value: 1, Oracle: 2, Random: 1}),
		scored(report.ScoreRecord{Model: evil, Mode: "standard", Dataset: "d<b>", Pool: 1, Alpha: 0.5, Variant: "default", Strategy: "llm", Regime: "U", Value: 2, Oracle: 2, Random: 1}),
	}
	rep := report.Build(recs, nil)
	figs, err := figures.Draw(rep, nil, figures.Options{DPI: 18})
	if err != nil {
		t.Fatal(err)
	}
	page := render(t, Input{Title: "T " + evil, Report: rep, Figures: figs, Notes: []string{"note " + evil}})
	if strings.Contains(page, "<script") || strings.Contains(page, "<b>") {
		t.Error("markup from the data reached the page unescaped")
	}
	if !strings.Contains(page, "&lt;script&gt;") {
		t.Error("the escaped model name is missing")
	}
}

// TestPageFetchesNothing requires a page that can load nothing: a
// Content-Security-Policy that forbids every fetch, no script, no
// external reference; the only URLs are the SVG namespace names.
func TestPageFetchesNothing(t *testing.T) {
	page := render(t, fixtureInput(t))
	if !strings.Contains(page, `content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`) {
		t.Error("no Content-Security-Policy forbidding fetches")
	}
	for _, bad := range []string{"<script", "<link", "<iframe", " src=", "url(", "@import"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	allowed := map[string]bool{"http://www.w3.org/2000/svg": true, "http://www.w3.org/1999/xlink": true}
	for _, u := range regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}[^"'\s<>)]*`).FindAllString(page, -1) {
		if !allowed[u] {
			t.Errorf("page refers to %s", u)
		}
	}
}

// TestWriteIsDeterministic writes the page twice.
func TestWriteIsDeterministic(t *testing.T) {
	in := fixtureInput(t)
	first, second := render(t, in), render(t, in)
	if first != second {
		t.Error("two writes of one input differ")
	}
}

// TestFiguresWithoutTablesStillShow gives figures whose tables the report
// does not have, and one of a kind the page does not know: each appears
// once, alone.
func TestFiguresWithoutTablesStillShow(t *testing.T) {
	svg := []byte(`<svg width="10pt" height="10pt"><g/></svg>`)
	in := Input{Report: report.Build(nil, nil), Figures: []figures.Figure{
		{Name: "efficiency_x_a0.5", Title: "Efficiency", Caption: "c1", Kind: figures.KindEfficiency, Strategy: "x", Variant: "-", Alpha: 0.5, SVG: svg},
		{Name: "mystery", Title: "Mystery", Caption: "c2", Kind: "mystery", SVG: svg},
	}}
	secs := sections(t, render(t, in))
	if n := strings.Count(secs["efficiency"], "<figure "); n != 1 || strings.Contains(secs["efficiency"], "<table") {
		t.Errorf("efficiency section: %d figures, tables present: %v", n, strings.Contains(secs["efficiency"], "<table"))
	}
	if n := strings.Count(secs["other-figures"], "<figure "); n != 1 {
		t.Errorf("other figures: %d, want 1", n)
	}
}

// TestWriteRefusesUnsafeFigures makes Write fail, writing nothing, on an
// SVG with a script.
func TestWriteRefusesUnsafeFigures(t *testing.T) {
	var buf bytes.Buffer
	err := Write(&buf, Input{Figures: []figures.Figure{{Name: "x", SVG: []byte(`<svg><script>alert(1)</script></svg>`)}}})
	if err == nil || buf.Len() != 0 {
		t.Errorf("Write: err %v, wrote %d bytes", err, buf.Len())
	}
}

// TestPageShowsComparisonPower: the comparison tables on the page carry
// each comparison's minimum detectable difference and the pools needed to
// detect 0.05 (SPEC §9 "Power"), as the report computed them.
func TestPageShowsComparisonPower(t *testing.T) {
	in := fixtureInput(t)
	secs := sections(t, render(t, in))
	var checked int
	for _, c := range in.Report.Comparisons {
		shown := slices.Contains(in.Report.HeadlineScopes, report.StrategyVariant{Strategy: c.Strategy, Variant: c.Variant})
		if !shown || !c.Power.Defined || c.Power.SD == 0 {
			continue
		}
		want := report.FormatCount(c.Power.PoolsNeeded)
		if !strings.Contains(secs["all-tables"], ">"+report.FormatNumber(c.Power.MDD)+"<") || !strings.Contains(secs["all-tables"], ">"+want+"<") {
			t.Errorf("comparison %s %s vs %s %s: MDD %.3f, pools %s not on the page", c.ModelA, c.ModeA, c.ModelB, c.ModeB, c.Power.MDD, want)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("the fixture has no comparison with a defined, non-zero paired SD")
	}
	for _, want := range []string{"MDD", "n for 0.05", "pools would detect a difference of 0.05"} {
		if !strings.Contains(secs["all-tables"], escapedText(want)) {
			t.Errorf("comparison tables lack %q", want)
		}
	}
}

// TestNoiseSection: a report with a noise part (SPEC §9) gets a
// "Measurement noise" section with its table; one without gets none.
func TestNoiseSection(t *testing.T) {
	in := fixtureInput(t)
	if _, ok := sections(t, render(t, in))["noise"]; ok {
		t.Error("a noise section without a noise part")
	}
	in.Report.Noise = &report.Noise{K: 5, Draws: 200, RandomOrders: 250, Solvers: []report.SolverNoise{
		{Model: "alpha-7b", Mode: "standard", Dataset: "aime", Items: 40, K: 5, FlipRate: metrics.Mean{Value: 0.125, N: 40, Defined: true}},
	}}
	body, ok := sections(t, render(t, in))["noise"]
	if !ok {
		t.Fatal("no noise section")
	}
	if strings.Count(body, "<table ") != 1 || !strings.Contains(body, "0.125") {
		t.Errorf("noise section: want the Measurement noise table with the flip rate 0.125:\n%s", body)
	}
}

// TestPageShowsSpend: a run with spend gets a Spend section holding its
// table; a run without has none.
func TestPageShowsSpend(t *testing.T) {
	if _, ok := sections(t, render(t, Input{Report: report.Build(nil, nil)}))["spend"]; ok {
		t.Error("a Spend section without spend")
	}
	spend := report.Table{Title: "Spend: what the calls cost", Header: []string{"phase", "dollars"}, Align: "lr", Rows: [][]string{{"phase0_baseline", "1.2500"}}}
	sec := sections(t, render(t, Input{Report: report.Build(nil, nil), Spend: &spend}))["spend"]
	if !strings.Contains(sec, "<table") || !strings.Contains(sec, "phase0_baseline") || !strings.Contains(sec, "1.2500") {
		t.Errorf("spend section:\n%s", sec)
	}
}
