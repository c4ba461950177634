// Package htmlreport writes a run's report as one self-contained HTML page
// (report.html): inline CSS, the figures as inline SVG, no script and no
// network access (a Content-Security-Policy forbids every fetch), readable
// in any browser from a file.
//
// # Use
//
//	figs, _ := figures.Draw(rep, rows, figures.Options{})
//	err := htmlreport.Write(w, htmlreport.Input{
//		Title: "TRIAGE report — run main", Report: rep, BudgetAware: rows,
//		Figures: figs, Notes: []string{"SYNTHETIC sample: not real model results."},
//	})
//
// # Layout
//
//  1. The title, then the notes (warnings such as stale results or a
//     synthetic sample) and a line saying where the numbers come from.
//  2. A summary: Report.SummaryTable at the report's headline α
//     (Report.Alpha, the α of figures 1 and 2), the table that
//     `triage report` prints — per solver and strategy, base accuracy, η_U
//     and η_E with their 95% intervals, D / W at the headline ratio and the
//     budget-aware headline (Acc baseline → budget-aware, compliance over
//     all N and over the finished re-solves) when the run has them.
//  3. Each figure beside the tables it draws: figures 1 and 2 beside the η
//     and R̃ tables at their α; the accuracy heat map beside the accuracy
//     table; the η heat maps beside the per-α tables; figure 4 beside the
//     injection tables of its α, strategy and variant; figure 5 beside the
//     budget-aware table; in a section "Why plans lose value", figure 6
//     beside the report's table of the regret decomposition at its α,
//     strategy and variant, and figure 7 beside the self-knowledge table;
//     when the run repeated Phase 0 (Report.Noise, SPEC §9), a section
//     "Measurement noise" with Report.NoiseTable. A figure whose table is
//     not found still appears, alone.
//  4. Every table (Report.Tables, then Report.CellsTable), each in a
//     collapsed <details>.
//
// A figure sits beside its tables when they fit beside it with their
// cells wrapped, and above them otherwise. Every table is the only child
// of a div.table-wrap, which scrolls a table wider than its column so
// that the page never does; its cells wrap only where pieces (tables.go)
// lets them.
//
// Text is escaped by html/template. Figures are inlined only when their SVG
// is well-formed, rooted at <svg>, and free of scripts, event handlers,
// foreignObject and external references (see inlineSVG). Output is
// deterministic.
package htmlreport
