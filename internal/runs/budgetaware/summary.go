package budgetaware

import (
	"github.com/triage-eval/triage/internal/runs/report"
	"github.com/triage-eval/triage/internal/store/runstore"
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
	// Compliance is the share of the N items whose output stayed within a_i
	// (the paper's formula, SPEC §5). An output cut at the request's
	// max_tokens counts as within a_i when a_i ≥ max_tokens, so this can
	// overstate what the model did by itself.
	Compliance float64 `json:"compliance"`
	// Finished counts the N items that ended by themselves (finish reason
	// not "length"); ComplianceFinished is the share of them whose output
	// stayed within a_i, 0 when Finished is 0.
	Finished           int     `json:"finished"`
	ComplianceFinished float64 `json:"compliance_finished"`
	// Uncapped counts the N items whose a_i ≥ the request's max_tokens:
	// their output cannot exceed a_i, so they comply whatever the model
	// does.
	Uncapped int `json:"uncapped"`
	// The four outcome counts; they sum to N.
	KeptCorrect  int `json:"kept_correct"`
	LostCorrect  int `json:"lost_correct"`
	NewlyCorrect int `json:"newly_correct"`
	StillWrong   int `json:"still_wrong"`
	// Truncated counts outputs cut at the token limit (incorrect).
	Truncated int `json:"truncated"`
}

// Summarize builds one row per (solver, dataset), each solver's rows
// followed by its AllDatasets row. results must be in key order (model,
// mode, dataset), as RunStore.BudgetAware returns them.
func Summarize(results []runstore.BudgetAwareResult) []Row {
	var rows []Row
	for _, solver := range runs(results, func(a, b runstore.BudgetAwareResult) bool { return a.Model == b.Model && a.Mode == b.Mode }) {
		for _, ds := range runs(solver, func(a, b runstore.BudgetAwareResult) bool { return a.Dataset == b.Dataset }) {
			rows = append(rows, tally(ds, ds[0].Dataset))
		}
		rows = append(rows, tally(solver, AllDatasets))
	}
	return rows
}

// runs splits results into maximal runs of neighbours that same says
// belong together.
func runs(results []runstore.BudgetAwareResult, same func(a, b runstore.BudgetAwareResult) bool) [][]runstore.BudgetAwareResult {
	var out [][]runstore.BudgetAwareResult
	for start, i := 0, 1; i <= len(results); i++ {
		if i == len(results) || !same(results[start], results[i]) {
			out = append(out, results[start:i])
			start = i
		}
	}
	return out
}

// tally summarizes results of one solver under the dataset label given.
func tally(results []runstore.BudgetAwareResult, dataset string) Row {
	row := Row{Model: results[0].Model, Mode: results[0].Mode, Dataset: dataset}
	within, withinFinished := 0, 0
	for _, r := range results {
		if !r.Gradeable {
			row.NotGradeable++
			continue
		}
		row.N++
		complied := r.OutputTokens <= r.Tokens
		if complied {
			within++
		}
		if r.Truncated {
			row.Truncated++
		} else {
			row.Finished++
			if complied {
				withinFinished++
			}
		}
		if r.MaxTokens > 0 && r.Tokens >= r.MaxTokens {
			row.Uncapped++
		}
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
	}
	if row.N > 0 {
		n := float64(row.N)
		row.AccBaseline = float64(row.KeptCorrect+row.LostCorrect) / n
		row.AccBudgetAware = float64(row.KeptCorrect+row.NewlyCorrect) / n
		row.Compliance = float64(within) / n
	}
	if row.Finished > 0 {
		row.ComplianceFinished = float64(withinFinished) / float64(row.Finished)
	}
	return row
}

// Headlines picks each solver's row over all datasets, as the report's
// summary shows it.
func Headlines(rows []Row) []report.BudgetAwareHeadline {
	var out []report.BudgetAwareHeadline
	for _, r := range rows {
		if r.Dataset == AllDatasets {
			out = append(out, report.BudgetAwareHeadline{
				Model: r.Model, Mode: r.Mode, N: r.N, AccBaseline: r.AccBaseline, AccBudgetAware: r.AccBudgetAware,
				Compliance: r.Compliance, ComplianceFinished: r.ComplianceFinished,
			})
		}
	}
	return out
}
