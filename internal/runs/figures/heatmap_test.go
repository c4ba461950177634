package figures

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/runs/report"
)

// heatKey places a printed value: its row label, its column label and the
// heading of its column group ("" without groups).
type heatKey struct{ row, col, group string }

// readHeatmap maps every value printed in a heat map's SVG (3 decimals,
// an optional "*", or "—") to the row label on its baseline, the column
// label centred above it and the nearest group heading. It fails the test
// when a value has no row or column, or two values share a cell.
func readHeatmap(t *testing.T, svg []byte, rows, cols, groups []string) map[heatKey]string {
	t.Helper()
	value := regexp.MustCompile(`^(-?\d+\.\d{3}[*°]?|—)$`)
	const tol = 0.05 // points; vgsvg writes 5 significant digits
	type anchor struct {
		label string
		at    float64
	}
	var rowYs, colXs, groupXs []anchor
	var values []svgText
	for _, tx := range parseSVGTexts(t, svg) {
		switch {
		case value.MatchString(tx.text):
			values = append(values, tx)
		case slices.Contains(rows, tx.text):
			rowYs = append(rowYs, anchor{tx.text, tx.y})
		case slices.Contains(cols, tx.text):
			colXs = append(colXs, anchor{tx.text, tx.centreX()})
		case slices.Contains(groups, tx.text):
			groupXs = append(groupXs, anchor{tx.text, tx.centreX()})
		}
	}
	if len(rowYs) != len(rows) {
		t.Fatalf("found %d row labels, want %d (%q)", len(rowYs), len(rows), rows)
	}
	near := func(as []anchor, v float64) []anchor {
		var out []anchor
		for _, a := range as {
			if math.Abs(a.at-v) < tol {
				out = append(out, a)
			}
		}
		return out
	}
	got := map[heatKey]string{}
	for _, v := range values {
		r, c := near(rowYs, v.y), near(colXs, v.centreX())
		if len(r) != 1 || len(c) != 1 {
			t.Errorf("value %q at (%.2f, %.2f): %d row labels on its baseline, %d column labels above it; want 1 and 1", v.text, v.x, v.y, len(r), len(c))
			continue
		}
		k := heatKey{row: r[0].label, col: c[0].label}
		if len(groupXs) > 0 {
			best := groupXs[0]
			for _, g := range groupXs[1:] {
				if math.Abs(g.at-c[0].at) < math.Abs(best.at-c[0].at) {
					best = g
				}
			}
			k.group = best.label
		}
		if prev, dup := got[k]; dup {
			t.Errorf("cell %+v printed twice: %q and %q", k, prev, v.text)
		}
		got[k] = v.text
	}
	return got
}

// findTable returns the report table with the given title.
func findTable(t *testing.T, rep report.Report, title string) report.Table {
	t.Helper()
	for _, tb := range rep.Tables() {
		if tb.Title == title {
			return tb
		}
	}
	t.Fatalf("the report has no table %q", title)
	return report.Table{}
}

// figureNamed returns the figure called name.
func figureNamed(t *testing.T, figs []Figure, name string) Figure {
	t.Helper()
	for _, f := range figs {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no figure %s", name)
	return Figure{}
}

// checkEtaHeatmaps reads every value printed in the η heat maps and
// compares it with the mean in the per-α table of its dataset, as the
// report prints it (3 decimals, "—" when undefined); a cell without
// records must print nothing. A "*" must follow exactly the values outside [−1, 1].
func checkEtaHeatmaps(t *testing.T, rep report.Report, figs []Figure) {
	ix := rep.Index()
	datasets := []string{"aime", "gpqa", "lcb"}
	alphas := []string{"α = 0.25", "α = 0.5", "α = 0.75", "α = 1"}
	for _, regime := range []string{"U", "E"} {
		t.Run(regime, func(t *testing.T) {
			want := map[heatKey]string{}
			var rows []string
			for _, d := range datasets {
				tb := findTable(t, rep, "η_U / η_E by α — dataset "+d+", strategy llm, variant default")
				for _, row := range tb.Rows {
					label := solverLabel(row[0], row[1])
					if !slices.Contains(rows, label) {
						rows = append(rows, label)
					}
					for j, h := range tb.Header {
						if !strings.HasPrefix(h, "α = ") || row[j] == "" {
							continue
						}
						// "u / e (n=…)", each mean possibly followed by its
						// interval "[lo, hi]": the heat map prints the mean.
						pair, _, _ := strings.Cut(row[j], " (n=")
						u, e, ok := strings.Cut(pair, " / ")
						if !ok {
							t.Fatalf("table cell %q is not \"u / e (n=…)\"", row[j])
						}
						want[heatKey{label, d, h}] = strings.Fields(map[string]string{"U": u, "E": e}[regime])[0]
					}
				}
			}
			got := readHeatmap(t, figureNamed(t, figs, "heatmap_eta_"+strings.ToLower(regime)+"_llm_default").SVG, rows, datasets, alphas)

			starred, conventional := 0, 0
			for k, text := range got {
				value, star := strings.CutSuffix(text, capMark)
				value, convention := strings.CutSuffix(value, conventionMark)
				if w, ok := want[k]; !ok {
					t.Errorf("%+v: printed %q where the table has no cell", k, text)
				} else if value != w {
					t.Errorf("%+v: printed %q, table %q", k, value, w)
				}
				c, ok := ix.Cell(cellOf(t, k, regime))
				outside := ok && c.Eta.Defined && math.Abs(c.Eta.Value) > 1
				if star != outside {
					t.Errorf("%+v: printed %q for η = %v: a star must mark exactly the values outside [−1, 1]", k, text, c.Eta.Value)
				}
				if star {
					starred++
				}
				if allDegenerate := ok && c.Eta.Defined && !c.Informative.Defined; convention != allDegenerate {
					t.Errorf("%+v: printed %q, every pool degenerate %v: %s must mark exactly the means set by convention alone", k, text, allDegenerate, conventionMark)
				}
				if convention {
					conventional++
				}
			}
			if conventional == 0 {
				t.Error("no cell is marked as set by convention alone: the fixture's α = 1 cells are")
			}
			for k, w := range want {
				if _, ok := got[k]; !ok {
					t.Errorf("%+v: table has %q, the heat map prints nothing", k, w)
				}
			}
			if regime == "E" && starred == 0 {
				t.Error("the fixture's η_E = −3 cells are not starred")
			}
		})
	}
}

// cellOf turns a heat-map position back into the key of its report cell.
func cellOf(t *testing.T, k heatKey, regime string) report.Key {
	t.Helper()
	for _, s := range fixtureSolvers {
		if solverLabel(s.model, s.mode) == k.row {
			alpha := map[string]float64{"α = 0.25": 0.25, "α = 0.5": 0.5, "α = 0.75": 0.75, "α = 1": 1}[k.group]
			return report.Key{Solver: report.Solver{Model: s.model, Mode: s.mode}, Dataset: k.col, Alpha: alpha, StrategyVariant: report.StrategyVariant{Strategy: vocab.LLM, Variant: vocab.Default}, Regime: vocab.Regime(regime)}
		}
	}
	t.Fatalf("no solver labelled %q", k.row)
	return report.Key{}
}

// checkAccuracyHeatmap compares every value of the accuracy heat map with
// the report's accuracy table.
func checkAccuracyHeatmap(t *testing.T, rep report.Report, figs []Figure) {
	tb := findTable(t, rep, "Base accuracy")
	// Datasets of unsolvable items only are left out of the heat map.
	unsolvableOnly := report.UnsolvableOnly(rep.Accuracy)
	want := map[heatKey]string{}
	var rows, cols []string
	for j := 2; j < len(tb.Header); j++ {
		if !unsolvableOnly[tb.Header[j]] {
			cols = append(cols, tb.Header[j])
		}
	}
	for _, row := range tb.Rows {
		label := solverLabel(row[0], row[1])
		rows = append(rows, label)
		for j := 2; j < len(row); j++ {
			if row[j] != "" && !unsolvableOnly[tb.Header[j]] {
				want[heatKey{row: label, col: tb.Header[j]}] = strings.Fields(row[j])[0]
			}
		}
	}
	got := readHeatmap(t, figureNamed(t, figs, "heatmap_accuracy").SVG, rows, cols, nil)
	if len(got) != len(want) {
		t.Errorf("printed %d values, the table has %d", len(got), len(want))
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%+v: printed %q, table %q", k, got[k], w)
		}
	}
}

// TestAccuracyHeatmapLeavesOutUnsolvableDatasets: a dataset whose items are
// all unsolvable (an injection source) has accuracy 0 by construction and
// gets no column; a dataset with some unsolvable items keeps its column;
// a report with only unsolvable datasets draws no accuracy heat map.
func TestAccuracyHeatmapLeavesOutUnsolvableDatasets(t *testing.T) {
	acc := func(dataset string, correct, gradeable, unsolvable int) report.AccuracyRow {
		return report.AccuracyRow{Model: "m", Mode: "standard", Dataset: dataset, Correct: correct, Gradeable: gradeable, Unsolvable: unsolvable,
			Accuracy: metrics.Mean{Value: float64(correct) / float64(gradeable), N: gradeable, Defined: true}}
	}
	rep := report.Report{Accuracy: []report.AccuracyRow{
		acc("gpqa", 5, 10, 0), acc("gpqa-abstain", 0, 10, 10), acc("mixed", 4, 10, 2),
	}}
	d, ok := accuracyHeatmap(rep)
	if !ok {
		t.Fatal("no accuracy heat map")
	}
	svg, _, err := render(d.sheet, 72)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, tx := range parseSVGTexts(t, svg) {
		texts = append(texts, tx.text)
	}
	for _, want := range []string{"gpqa", "mixed", "0.500", "0.400"} {
		if !slices.Contains(texts, want) {
			t.Errorf("no %q in the heat map's texts %q", want, texts)
		}
	}
	if slices.Contains(texts, "gpqa-abstain") {
		t.Errorf("the all-unsolvable dataset has a column: %q", texts)
	}

	if _, ok := accuracyHeatmap(report.Report{Accuracy: []report.AccuracyRow{acc("gpqa-abstain", 0, 10, 10)}}); ok {
		t.Error("an accuracy heat map of unsolvable datasets only")
	}
}
