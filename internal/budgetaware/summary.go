package budgetaware

import (
	"github.com/triage-eval/triage/internal/orchestrator"
)

// AllDatasets labels a solver's row over every dataset.
const AllDatasets = "all"

// Row summarizes the re-solves of one solver on one dataset (or all).
type Row struct {
	// Model, Mode and Dataset name the row; Dataset is AllDatasets for the
	// solver's total.
	Model   string `json:"model"`
	Mode    string `json:"mode"`
	Dataset string `json:"dataset"`
	// N is the re-solves graded; NotGradeable those that failed.
	N            int `json:"n"`
	NotGradeable int `json:"not_gradeable"`
	// AccBaseline and AccBudgetAware are the accuracies over the N items.
	AccBaseline    float64 `json:"acc_baseline"`
	AccBudgetAware float64 `json:"acc_budget_aware"`
	// Compliance is the share of the N items whose output stayed within a_i.
	Compliance float64 `json:"compliance"`
	// The four outcome counts; they sum to N.
	KeptCorrect  int `json:"kept_correct"`
	LostCorrect  int `json:"lost_correct"`
	NewlyCorrect int `json:"newly_correct"`
	StillWrong   int `json:"still_wrong"`
	// Truncated counts outputs cut at the token limit (incorrect).
	Truncated int `json:"truncated"`
}

// Summarize builds one row per (solver, dataset), each solver's rows
// followed by its AllDatasets row, in the order of results (key order).
func Summarize(results []orchestrator.BudgetAwareResult) []Row {
	var rows []Row
	var total *Row
	var within, totalWithin int
	flush := func() {
		if total != nil {
			finish(total, totalWithin)
			rows = append(rows, *total)
		}
	}
	for i, r := range results {
		if i == 0 || r.Model != results[i-1].Model || r.Mode != results[i-1].Mode {
			if i > 0 {
				finish(&rows[len(rows)-1], within)
				flush()
			}
			total, totalWithin = &Row{Model: r.Model, Mode: r.Mode, Dataset: AllDatasets}, 0
			rows = append(rows, Row{Model: r.Model, Mode: r.Mode, Dataset: r.Dataset})
			within = 0
		} else if r.Dataset != results[i-1].Dataset {
			finish(&rows[len(rows)-1], within)
			rows = append(rows, Row{Model: r.Model, Mode: r.Mode, Dataset: r.Dataset})
			within = 0
		}
		for _, row := range []*Row{&rows[len(rows)-1], total} {
			add(row, r)
		}
		if r.Gradeable && r.OutputTokens <= r.Tokens {
			within++
			totalWithin++
		}
	}
	if len(results) > 0 {
		finish(&rows[len(rows)-1], within)
		flush()
	}
	return rows
}

// add counts one result into row (as raw counts; finish turns the
// accuracies into means).
func add(row *Row, r orchestrator.BudgetAwareResult) {
	if !r.Gradeable {
		row.NotGradeable++
		return
	}
	row.N++
	switch {
	case r.BaselineCorrect && r.Correct:
		row.KeptCorrect++
	case r.BaselineCorrect:
		row.LostCorrect++
	case r.Correct:
		row.NewlyCorrect++
	default:
		row.StillWrong++
	}
	if r.Truncated {
		row.Truncated++
	}
}

// finish computes a row's means from its counts.
func finish(row *Row, within int) {
	if row.N == 0 {
		return
	}
	n := float64(row.N)
	row.AccBaseline = float64(row.KeptCorrect+row.LostCorrect) / n
	row.AccBudgetAware = float64(row.KeptCorrect+row.NewlyCorrect) / n
	row.Compliance = float64(within) / n
}
