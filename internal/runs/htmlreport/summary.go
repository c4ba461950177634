package htmlreport

import (
	"github.com/triage-eval/triage/internal/runs/budgetaware"
	"github.com/triage-eval/triage/internal/runs/report"
)

// summary is the page's opening table: Report.SummaryTable at alpha (0:
// the headline α; the table `triage report` prints), with each solver's
// budget-aware headline. It returns false when the report has no cell to
// summarize.
func summary(rep report.Report, ba []budgetaware.Row, alpha float64) (tableView, bool) {
	if len(rep.Cells) == 0 {
		return tableView{}, false
	}
	t := rep.SummaryTable(alpha, budgetaware.Headlines(ba))
	return viewOf(t, "t-summary"), true
}
