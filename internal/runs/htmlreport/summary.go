package htmlreport

import (
	"github.com/triage-eval/triage/internal/runs/budgetaware"
	"github.com/triage-eval/triage/internal/runs/report"
)

// summary is the page's opening table: Report.SummaryTable at the
// report's headline α (the table `triage report` prints), with each
// solver's budget-aware headline. It returns false when the report has no
// cell to summarize.
func summary(rep report.Report, ba []budgetaware.Row) (tableView, bool) {
	if len(rep.Cells) == 0 {
		return tableView{}, false
	}
	t := rep.SummaryTable(budgetaware.Headlines(ba))
	return viewOf(t, "t-summary"), true
}
