package figures

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/runs/budgetaware"
	"github.com/triage-eval/triage/internal/runs/report"
)

// budgetAwareFigures draws figure 5 as the paper does, as two heat tables
// coloured by intensity within each metric: per solver, and per (solver,
// dataset). Either is left out without rows for it.
func budgetAwareFigures(rows []budgetaware.Row) []drawing {
	var out []drawing
	if d, ok := budgetAwareSolvers(rows); ok {
		out = append(out, d)
	}
	if d, ok := budgetAwareDatasets(rows); ok {
		out = append(out, d)
	}
	return out
}

// rate is a share of a row's items as a mean, undefined when n = 0.
func rate(v float64, n int) metrics.Mean {
	if n == 0 {
		return metrics.Mean{}
	}
	return metrics.Mean{Value: v, N: n, Defined: true}
}

// budgetAwareSolvers is the per-solver table: N, the two accuracies, the
// two compliances and the four outcome counts (coloured by their share
// of N).
func budgetAwareSolvers(rows []budgetaware.Row) (drawing, bool) {
	scale := sequentialScale()
	grid := heatGrid{
		cols: []string{"N", "baseline", "budget-aware", "all N", "finished", "kept correct", "lost correct", "newly correct", "still wrong"},
		groups: []colGroup{
			{"", 1}, {"accuracy", 2}, {"compliance", 2}, {"outcomes (sum to N)", 4},
		},
	}
	var counts countRange
	uncapped, truncated := 0, 0
	for _, r := range rows {
		if r.Dataset != budgetaware.AllDatasets {
			continue
		}
		counts.add(r.N)
		uncapped += r.Uncapped
		truncated += r.Truncated
		grid.rows = append(grid.rows, solverLabel(r.Model, r.Mode))
		count := func(k int) heatCell {
			c := heatCell{text: strconv.Itoa(k), fill: undefinedGrey}
			if r.N > 0 {
				c.fill = scale.at(float64(k) / float64(r.N))
			}
			return c
		}
		grid.cells = append(grid.cells, []heatCell{
			{text: strconv.Itoa(r.N), fill: white},
			meanCell(rate(r.AccBaseline, r.N), scale, false),
			meanCell(rate(r.AccBudgetAware, r.N), scale, false),
			meanCell(rate(r.Compliance, r.N), scale, false),
			meanCell(rate(r.ComplianceFinished, r.Finished), scale, false),
			count(r.KeptCorrect), count(r.LostCorrect), count(r.NewlyCorrect), count(r.StillWrong),
		})
	}
	if len(grid.rows) == 0 {
		return drawing{}, false
	}
	title := "Budget-aware re-solve per solver"
	caption := sentence(
		fmt.Sprintf("Budget-aware re-solve, per solver over all datasets: each (problem, allocation a_i) that the solver's α = 1 plan selected is solved again with a banner stating a_i and no hard cap (%s re-solves per solver).", counts),
		"Accuracy: Acc_baseline (the original baseline solve) and Acc_budget-aware (with the banner).",
		"Compliance: the share of re-solves whose output stayed within a_i, over all N (the paper's formula) and over the re-solves that finished by themselves (not cut at max_tokens; — when none did).",
		fmt.Sprintf("%d re-solves had a_i ≥ max_tokens and comply whatever the model did; %d were cut at max_tokens.", uncapped, truncated),
		"Outcomes: kept correct, lost correct, newly correct and still wrong, which sum to N.",
		"Cells use the white→teal scale by intensity within each metric: rates on [0, 1], counts by their share of N.",
	)
	hb, w := heatBlock(grid)
	return drawing{
		fig: Figure{Name: "budget_aware_solvers", Title: title, Caption: caption, Kind: KindBudgetAwareSolvers},
		sheet: sheet{
			width: max(w, titleStyle().Width(title)) + 2*sheetMargin, title: title,
			blocks: []block{hb, colourBarBlock(scale, "rate, or share of N", []float64{0, 0.5, 1})},
		},
	}, true
}

// budgetAwareDatasets is the per-(solver, dataset) table: a block of
// three rates per dataset.
func budgetAwareDatasets(rows []budgetaware.Row) (drawing, bool) {
	var datasets []string
	for _, r := range rows {
		if r.Dataset != budgetaware.AllDatasets {
			datasets = append(datasets, r.Dataset)
		}
	}
	slices.Sort(datasets)
	datasets = slices.Compact(datasets)
	if len(datasets) == 0 {
		return drawing{}, false
	}
	type solverRow struct {
		report.Solver
		byDataset map[string]budgetaware.Row
	}
	var solvers []solverRow
	for _, r := range rows {
		if r.Dataset == budgetaware.AllDatasets {
			continue
		}
		s := report.Solver{Model: r.Model, Mode: r.Mode}
		i := slices.IndexFunc(solvers, func(x solverRow) bool { return x.Solver == s })
		if i < 0 {
			solvers = append(solvers, solverRow{s, map[string]budgetaware.Row{}})
			i = len(solvers) - 1
		}
		solvers[i].byDataset[r.Dataset] = r
	}
	slices.SortFunc(solvers, func(a, b solverRow) int { return report.CompareSolvers(a.Solver, b.Solver) })

	scale := sequentialScale()
	var grid heatGrid
	for _, d := range datasets {
		grid.groups = append(grid.groups, colGroup{label: d, span: 3})
		grid.cols = append(grid.cols, "baseline", "budget-aware", "compliance")
	}
	var counts countRange
	for _, s := range solvers {
		grid.rows = append(grid.rows, label(s.Solver))
		var cells []heatCell
		for _, d := range datasets {
			r, ok := s.byDataset[d]
			if !ok {
				cells = append(cells, heatCell{}, heatCell{}, heatCell{})
				continue
			}
			counts.add(r.N)
			cells = append(cells,
				meanCell(rate(r.AccBaseline, r.N), scale, false),
				meanCell(rate(r.AccBudgetAware, r.N), scale, false),
				meanCell(rate(r.Compliance, r.N), scale, false))
		}
		grid.cells = append(grid.cells, cells)
	}
	title := "Budget-aware re-solve per solver and dataset"
	caption := sentence(
		fmt.Sprintf("Budget-aware re-solve per (solver, dataset) (%s re-solves per cell block): Acc_baseline, Acc_budget-aware and compliance over all N, as in the per-solver figure.", counts),
		"Cells use the white→teal scale on [0, 1]; — : no graded re-solve; a blank block: no re-solve of that solver on that dataset.",
	)
	hb, w := heatBlock(grid)
	return drawing{
		fig: Figure{Name: "budget_aware_datasets", Title: title, Caption: caption, Kind: KindBudgetAwareDatasets},
		sheet: sheet{
			width: max(w, titleStyle().Width(title)) + 2*sheetMargin, title: title,
			blocks: []block{hb, colourBarBlock(scale, "rate", []float64{0, 0.5, 1})},
		},
	}, true
}
