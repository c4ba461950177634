package htmlreport

import (
	"strconv"
	"strings"
	"unicode/utf8"

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

// cellView is one cell; Num right-aligns it. A body cell's Pieces say
// where its text may wrap (see pieces); a header cell has none and wraps
// between words.
type cellView struct {
	Text   string
	Num    bool
	Pieces []piece
}

// piece is a run of a cell's text; Keep holds it on one line.
type piece struct {
	Text string
	Keep bool
}

// proseRunes is the length above which a text cell is prose: its column
// gets a measure of its own (class "prose") and the cell wraps to it,
// leaving the other columns the width to hold their values on one line.
const proseRunes = 48

// Class is the cell's class attribute: "num" right-aligns it, "keep" holds
// all of it on one line, "prose" wraps it at a measure of its own.
func (c cellView) Class() string {
	var cls []string
	if c.Num {
		cls = append(cls, "num")
	}
	if len(c.Pieces) == 1 && c.Pieces[0].Keep {
		cls = append(cls, "keep")
	} else if !c.Num && utf8.RuneCountInString(c.Text) > proseRunes {
		cls = append(cls, "prose")
	}
	return strings.Join(cls, " ")
}

// pieces splits a body cell's text where a line may break, so that a
// narrow column wraps it at its parts and never inside one: a word (an
// identifier such as a model, dataset or strategy name) is kept whole; a
// cell of values breaks after each " / " that separates two of them
// ("η_U … / η_E …"), keeping each value with its interval
// ("0.512 [0.401, 0.613]†"), and before its parenthesised remark
// ("(n=4; …)"), which wraps as prose, as does a text column's prose; a
// cell of one value may also put its interval under it. Only the
// outermost level counts: nothing inside brackets or parentheses is
// split. The pieces' texts join to text exactly.
func pieces(text string, num bool) []piece {
	if text == "" {
		return nil
	}
	if !strings.Contains(text, " ") {
		return []piece{{Text: text, Keep: true}}
	}
	if !num {
		return []piece{{Text: text}}
	}
	var out []piece
	add := func(s string) {
		if s != "" {
			out = append(out, piece{Text: s, Keep: strings.Contains(s, " ")})
		}
	}
	single := !topLevel(text, " / ")
	depth, start := 0, 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case depth == 0 && c == ' ' && strings.HasPrefix(text[i:], " (") && i > 0:
			add(text[start:i])
			return append(out, piece{Text: " "}, piece{Text: text[i+1:]})
		case depth == 0 && c == ' ' && single && strings.HasPrefix(text[i:], " [") && i > 0:
			add(text[start:i])
			out = append(out, piece{Text: " "})
			start = i + 1
		case depth == 0 && strings.HasPrefix(text[i:], " / "):
			add(text[start : i+2])
			out = append(out, piece{Text: " "})
			start = i + 3
			i += 2
		case c == '[' || c == '(':
			depth++
		case c == ']' || c == ')':
			depth = max(0, depth-1)
		}
	}
	add(text[start:])
	return out
}

// topLevel reports whether sep occurs in text outside brackets and
// parentheses.
func topLevel(text, sep string) bool {
	depth := 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '[' || c == '(':
			depth++
		case c == ']' || c == ')':
			depth = max(0, depth-1)
		case depth == 0 && strings.HasPrefix(text[i:], sep):
			return true
		}
	}
	return false
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
			cells[j] = cellView{Text: text, Num: num(j), Pieces: pieces(text, num(j))}
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
