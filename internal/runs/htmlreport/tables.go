package htmlreport

import (
	"strconv"

	"github.com/triage-eval/triage/internal/runs/budgetaware"
	"github.com/triage-eval/triage/internal/runs/report"
)

// tableView is a table as the template renders it.
type tableView struct {
	// ID is unique on the page.
	ID     string
	Title  string
	Notes  []string
	Header []cellView
	Rows   [][]cellView
}

// cellView is one cell; Num right-aligns it.
type cellView struct {
	Text string
	Num  bool
}

// viewOf turns a report table into a view with the given id: a column
// whose Align byte is 'r' is numeric.
func viewOf(t report.Table, id string) tableView {
	v := tableView{ID: id, Title: t.Title, Notes: t.Notes}
	num := func(j int) bool { return j < len(t.Align) && t.Align[j] == 'r' }
	for j, h := range t.Header {
		v.Header = append(v.Header, cellView{Text: h, Num: num(j)})
	}
	for _, row := range t.Rows {
		cells := make([]cellView, len(row))
		for j, text := range row {
			cells[j] = cellView{Text: text, Num: num(j)}
		}
		v.Rows = append(v.Rows, cells)
	}
	return v
}

// budgetAwareTable is the budget-aware re-solve's table, with the columns
// of budgetaware.Markdown.
func budgetAwareTable(rows []budgetaware.Row) report.Table {
	t := report.Table{
		Title: "Budget-aware re-solve",
		Notes: []string{
			"Rows: solvers (model, mode) per dataset, then over all datasets (\"" + budgetaware.AllDatasets + "\"). N = re-solves graded.",
			"compliance: output ≤ a_i over all N (the paper's formula); finished: over the re-solves that ended by themselves (not cut at max_tokens); uncapped: re-solves with a_i ≥ max_tokens, which cannot break their allocation.",
			"The four outcome counts (kept, lost, newly correct, still wrong) sum to N.",
		},
		Header: []string{"Model", "Mode", "Dataset", "N", "Acc baseline", "Acc budget-aware", "compliance", "compliance (finished)", "finished", "uncapped",
			"kept correct", "lost correct", "newly correct", "still wrong", "truncated", "not gradeable"},
		Align: "lllrrrrrrrrrrrrr",
	}
	for _, r := range rows {
		t.Rows = append(t.Rows, []string{
			r.Model, r.Mode, r.Dataset, strconv.Itoa(r.N), report.FormatNumber(r.AccBaseline), report.FormatNumber(r.AccBudgetAware), report.FormatNumber(r.Compliance),
			finishedCompliance(r), strconv.Itoa(r.Finished), strconv.Itoa(r.Uncapped),
			strconv.Itoa(r.KeptCorrect), strconv.Itoa(r.LostCorrect), strconv.Itoa(r.NewlyCorrect), strconv.Itoa(r.StillWrong),
			strconv.Itoa(r.Truncated), strconv.Itoa(r.NotGradeable),
		})
	}
	return t
}

// finishedCompliance is the compliance over the finished re-solves, "—"
// when none finished.
func finishedCompliance(r budgetaware.Row) string {
	if r.Finished == 0 {
		return undefinedText
	}
	return report.FormatNumber(r.ComplianceFinished)
}
