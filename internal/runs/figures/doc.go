// Package figures draws the paper's figures (SPEC §8) from a run's report:
// every figure as SVG and PNG from one drawing, each with its own caption.
//
// # Use
//
//	figs, err := figures.Draw(rep, budgetAwareRows, figures.Options{})
//	err = figures.WriteDir("results/report/figures", figs)
//
// Draw returns the figures the data supports, in SPEC order; a figure
// without data is left out rather than drawn empty:
//
//  1. efficiency_<strategy>_<variant>_a<α>: triage efficiency at the
//     report's headline α (Report.Alpha). One panel per dataset, one
//     group of bars per solver: solid η_U, hatched η_E, 95% bootstrap
//     whiskers (Cell.EtaCI), the solver's base accuracy as a red dashed
//     mark, colour by mode (navy standard, teal
//     extended), reference lines at η = 0 and η = 1.
//  2. regret_<strategy>_<variant>_a<α>: the same layout with R̃_U / R̃_E.
//  3. heatmap_accuracy: base accuracy per (solver, dataset), white→teal;
//     heatmap_eta_u_… and heatmap_eta_e_…: η per (solver, α, dataset) on a
//     diverging coral→white→navy scale capped at [−1, 1], "*" after a
//     value outside the cap, α blocks separated by bold rules, the value
//     printed in every cell exactly as the report's tables print it.
//  4. injection_<strategy>_<variant>_a<α>: each solver's trajectory
//     through (D, W) space as the injection ratio r grows (marker size =
//     r), one panel per base dataset and source, the ideal corner (D = 1,
//     W = 0) starred. D and W depend on the plan only; regime U's cells
//     are used.
//  5. budget_aware_solvers and budget_aware_datasets: the budget-aware
//     re-solve as heat tables, as the paper draws it: per solver N,
//     Acc_baseline, Acc_budget-aware, compliance (all N and finished) and
//     the four outcome counts; per (solver, dataset) the three rates.
//  6. losses_<strategy>_<variant>_a<α>: where value is lost, at the
//     headline α. One panel per dataset, one stacked bar per solver: the
//     mean selection (blue), order (orange) and enforcement (purple)
//     losses of the regret decomposition (Cell.Selection, Order,
//     Enforcement; SPEC §5), a negative enforcement loss drawn below 0;
//     the mean R̃_U (solid line, circle) and R̃_E (dashed line, triangle)
//     marked on the bar. The caption counts the pools without a
//     decomposition (Cell.Undecomposed) and names their cells.
//  7. self_knowledge_<strategy>_<variant>_a<α>: self-knowledge, at the
//     headline α. One panel per dataset, one group of bars per solver: the
//     mean η_U of Report.KnowledgeScope (the llm strategy under the
//     headline variant) in the mode colour, then the mean η_U of the
//     solver's partial-information references population (grey),
//     self_feasibility (orange) and self_cost (sky blue) (SPEC §4), with
//     whiskers and the η = 0 and η = 1 lines of figure 1. Drawn when a
//     reference has a defined η_U; without a KnowledgeScope, the
//     references alone (as the report's self-knowledge table).
//
// The whiskers of figures 1, 2 and 7 are the report's intervals. Where
// some are over fewer than report.FewPools pools — those the tables mark
// report.FewPoolsMark — the caption says how many, in the tables' words
// (report.FewPoolsCaveat: read them as the range of the pools, not as
// confidence intervals), and the legend calls them that range rather than
// a 95% CI (whiskerTally).
//
// In the bar figures (1, 2, 6 and 7) a measured value never looks like a
// missing one: an undefined mean is marked "n/a" and drawn as nothing, and
// a defined mean whose bar would be shorter than minBarHeight —
// a mean of exactly 0 among them — is a tick that tall on the zero line,
// labelled with its value (figure 6: an outlined tick, labelled with the
// sum of the losses, when every loss of the bar is that close to 0). The
// label stands beyond the far end of the tick and its whisker (below a
// tick under the zero line, above one on it; the other end, or beside
// the bar, when the panel has no room there), so that it never hides a
// whisker cap.
//
// Figures 1–3 are drawn for Report.FigureScopes and figure 4 for
// Report.InjectionFigureScopes: the llm strategy's variants that measured
// something when there are any, otherwise every pair, in vocab's
// order, so the headline variant's figures ("default", SPEC §5) come
// first. Figure 6 is drawn for Report.HeadlineScopes (the llm strategy
// under the headline variant, otherwise every reference strategy), the
// scopes of the report's "Why plans lose value" tables. The report decides every such setting (α, scopes, bootstrap);
// this package draws what it is given. A caption of η means (figures 1 and
// 3) that include degenerate pools (SPEC §5) counts them and names the
// cells whose pools are all D1.
//
// # Drawing
//
// Figures are gonum plots (gonum.org/v1/plot). What gonum does not draw
// itself — hatched bars, heat cells with printed values, a starred corner,
// a legend row — is a plot.Plotter (or draw.GlyphDrawer) of this package
// drawing with vg primitives, so the SVG (vg/vgsvg) and the PNG (vg/vgimg)
// come from the same drawing. Text uses the Liberation Sans fonts embedded
// in gonum; the output holds no timestamp and is byte-for-byte
// deterministic for a given report.
package figures
