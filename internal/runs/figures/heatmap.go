package figures

import (
	"fmt"
	"slices"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/runs/report"
)

// capMark follows a value outside the diverging scale's range [−1, 1].
const capMark = "*"

// conventionMark follows a mean η every pool of which is degenerate (SPEC
// §5): a mean of pools each set to 1 or 0 by convention, not measured, so
// its cell is drawn on conventionGrey rather than on the scale of measured
// values.
const conventionMark = "°"

// accuracyHeatmap draws base accuracy per (solver, dataset) on the
// sequential scale. A dataset of unsolvable problems only (an injection
// source) is left out: its accuracy is 0 by construction. ok is false when
// no dataset is left.
func accuracyHeatmap(rep report.Report) (drawing, bool) {
	var datasets []string
	var solvers []report.Solver
	unsolvableOnly := report.UnsolvableOnly(rep.Accuracy)
	for _, a := range rep.Accuracy {
		if unsolvableOnly[a.Dataset] {
			continue
		}
		datasets = append(datasets, a.Dataset)
		solvers = append(solvers, report.Solver{Model: a.Model, Mode: a.Mode})
	}
	if len(datasets) == 0 {
		return drawing{}, false
	}
	slices.Sort(datasets)
	datasets = slices.Compact(datasets)
	slices.SortFunc(solvers, report.CompareSolvers)
	solvers = slices.Compact(solvers)

	scale := sequentialScale()
	grid := heatGrid{cols: datasets}
	var counts countRange
	for _, s := range solvers {
		grid.rows = append(grid.rows, label(s))
		row := make([]heatCell, len(datasets))
		for j, d := range datasets {
			i := slices.IndexFunc(rep.Accuracy, func(a report.AccuracyRow) bool {
				return a.Model == s.Model && a.Mode == s.Mode && a.Dataset == d
			})
			if i < 0 {
				continue
			}
			row[j] = meanCell(rep.Accuracy[i].Accuracy, scale, false)
			if rep.Accuracy[i].Accuracy.Defined {
				counts.add(rep.Accuracy[i].Accuracy.N)
			}
		}
		grid.cells = append(grid.cells, row)
	}
	title := "Base accuracy per solver and dataset"
	caption := sentence(
		"Base accuracy per (solver, dataset): correct answers over the gradeable items of the solver's ground truth ("+counts.String()+" items per cell), independent of α.",
		"Cells use a sequential white→teal scale from 0 to 1; the value is printed with 3 decimals as in the accuracy table.",
		"Unsolvable (injected) items count as wrong; datasets of unsolvable problems only (injection sources, 0 by construction) are left out. — : no gradeable item; a blank cell: no ground truth.",
	)
	hb, w := heatBlock(grid)
	return drawing{
		fig: Figure{Name: "heatmap_accuracy", Title: title, Caption: caption, Kind: KindAccuracyHeatmap},
		sheet: sheet{
			width: max(w, titleStyle().Width(title), 220) + 2*sheetMargin, title: title,
			blocks: []block{hb, colourBarBlock(scale, "accuracy", []float64{0, 0.5, 1})},
		},
	}, true
}

// etaHeatmap draws mean η of one regime per (solver, α, dataset) for one
// strategy-variant on the diverging scale capped at [−1, 1]: α blocks of
// dataset columns. ok is false when no mean is defined.
func etaHeatmap(rep report.Report, sv report.StrategyVariant, regime vocab.Regime) (drawing, bool) {
	keep := func(c report.Cell) bool {
		return c.Strategy == sv.Strategy && c.Variant == sv.Variant && c.Regime == regime
	}
	alphas := report.Distinct(rep.Cells, keep, func(c report.Cell) float64 { return c.Alpha })
	datasets := report.Distinct(rep.Cells, keep, func(c report.Cell) string { return c.Dataset })
	solvers := report.Solvers(rep.Cells, keep)
	ix := rep.Index()

	scale := divergingScale()
	var grid heatGrid
	for _, a := range alphas {
		grid.groups = append(grid.groups, colGroup{label: "α = " + report.FormatAlpha(a), span: len(datasets)})
		grid.cols = append(grid.cols, datasets...)
	}
	var counts countRange
	var degenerate degenerateTally
	conventional := 0
	for _, s := range solvers {
		grid.rows = append(grid.rows, label(s))
		var row []heatCell
		for _, a := range alphas {
			for _, d := range datasets {
				c, ok := ix.Cell(report.Key{Solver: s, Dataset: d, Alpha: a, StrategyVariant: sv, Regime: regime})
				if !ok {
					row = append(row, heatCell{})
					continue
				}
				cell := meanCell(c.Eta, scale, true)
				if c.Eta.Defined && !c.Informative.Defined {
					cell = heatCell{text: report.FormatMean(c.Eta) + conventionMark, fill: conventionGrey}
					conventional++
				}
				row = append(row, cell)
				if c.Eta.Defined {
					counts.add(c.Eta.N)
				}
				degenerate.add(c, fmt.Sprintf("%s on %s at α = %s", label(s), d, report.FormatAlpha(a)))
			}
		}
		grid.cells = append(grid.cells, row)
	}
	if !counts.seen {
		return drawing{}, false
	}
	regimeName := map[vocab.Regime]string{vocab.Advisory: "advisory budget (regime U)", vocab.Enforced: "enforced budget (regime E)"}[regime]
	title := fmt.Sprintf("η_%s per solver, α and dataset — %s", regime, report.ScopePhrase(sv.Strategy, sv.Variant))
	caption := sentence(
		fmt.Sprintf("Triage efficiency under the %s, η_%s, per (solver, α, dataset), %s.", regimeName, regime, report.ScopePhrase(sv.Strategy, sv.Variant)),
		fmt.Sprintf("Each cell: the mean η over the cell's pools with a scored plan (%s pools per cell), printed with 3 decimals as in the per-α tables.", counts),
		"η = 1 matches oracle planning, η = 0 a random planner, η < 0 is worse than random.",
		"Cells use a diverging coral→white→navy scale capped at [−1, 1]: a value outside the cap is marked * and takes the colour of the nearer end.",
		"Bold vertical rules separate the α blocks. — : no pool with a scored plan; a blank cell: no records.",
		degenerate.sentence("these cells"),
		conventionSentence(conventional),
	)
	hb, w := heatBlock(grid)
	return drawing{
		fig: Figure{
			Name:  fileStem(append([]string{"heatmap", "eta", string(regime)}, stem(sv)...)...),
			Title: title, Caption: caption, Kind: KindEtaHeatmap,
			Strategy: sv.Strategy, Variant: sv.Variant, Regime: regime,
		},
		sheet: sheet{
			width: max(w, titleStyle().Width(title)) + 2*sheetMargin, title: title,
			blocks: []block{hb, colourBarBlock(scale, "η (capped at [−1, 1])", []float64{-1, -0.5, 0, 0.5, 1})},
		},
	}, true
}

// meanCell is the heat cell of a mean: its value with 3 decimals on the
// scale's colour, "*" appended when markCap is set and the value lies
// outside the scale, or "—" on grey when the mean is undefined.
func meanCell(m metrics.Mean, scale colourScale, markCap bool) heatCell {
	if !m.Defined {
		return heatCell{text: undefinedText, fill: undefinedGrey}
	}
	text := report.FormatMean(m)
	if markCap && scale.capped(m.Value) {
		text += capMark
	}
	return heatCell{text: text, fill: scale.at(m.Value)}
}

// conventionSentence is the caption's note on the n cells marked
// conventionMark, "" when there are none.
func conventionSentence(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d %s marked %s on pale grey: every pool of the cell is degenerate, so its η is set by convention, not measured, and takes no colour of the scale.",
		n, map[bool]string{true: "cell is", false: "cells are"}[n == 1], conventionMark)
}
