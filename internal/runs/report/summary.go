package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// BudgetAwareHeadline is what the summary shows of a solver's budget-aware
// re-solve (over all its datasets).
type BudgetAwareHeadline struct {
	Model, Mode string
	// N re-solves; accuracies before and after; compliance over all N and
	// over the re-solves that finished by themselves.
	N                              int
	AccBaseline, AccBudgetAware    float64
	Compliance, ComplianceFinished float64
}

// SummaryTable is the report's headline as one table (SPEC §8's summary):
// per solver and strategy, base accuracy, η_U and η_E at α over the
// datasets with their intervals, the injection experiment's D / W at its
// headline ratio, and the budget-aware re-solve when ba has the solver.
// Columns without data anywhere are left out.
func (r Report) SummaryTable(alpha float64, ba []BudgetAwareHeadline) Table {
	rows := r.Headline(alpha)
	t := Table{Title: "Summary"}
	if len(rows) == 0 {
		t.Notes = []string{"The run store holds no scored cell yet."}
		return t
	}
	withInjection := false
	for _, row := range rows {
		withInjection = withInjection || row.Detection.Defined || row.Waste.Defined
	}
	baOf := map[solver]BudgetAwareHeadline{}
	for _, b := range ba {
		baOf[solver{b.Model, b.Mode}] = b
	}
	t.Header = []string{"Model", "Mode", "Strategy", "accuracy", fmt.Sprintf("η_U at α = %s [95%% CI]", alphaText(rows[0].Alpha)), fmt.Sprintf("η_E at α = %s [95%% CI]", alphaText(rows[0].Alpha))}
	t.Align = "lllrrr"
	t.Notes = []string{fmt.Sprintf("η: mean over datasets of the mean over pools (1 = the oracle, 0 = the random planner), with a 95%% bootstrap interval over the pools; accuracy: base accuracy over the same datasets.")}
	if withInjection {
		t.Header = append(t.Header, fmt.Sprintf("D / W at r = %s", alphaText(rows[0].Ratio)))
		t.Align += "r"
		t.Notes = append(t.Notes, "D / W: detection (share of injected unsolvable problems left out, 1 is ideal) and waste (share of planned tokens spent on them, 0 is ideal).")
	}
	if len(ba) > 0 {
		t.Header = append(t.Header, "budget-aware acc", "compliance (all / finished)")
		t.Align += "rr"
		t.Notes = append(t.Notes, "budget-aware: accuracy before → after the re-solve with the α = 1 plan's allocation stated; compliance: share of outputs within the allocation, over all re-solves / over those that ended by themselves.")
	}
	for _, row := range rows {
		strategy := row.Strategy
		if row.Variant != "-" {
			strategy += " (" + row.Variant + ")"
		}
		cells := []string{row.Model, row.Mode, strategy, fixed3(row.Accuracy), withCI(row.EtaU, row.EtaUCI), withCI(row.EtaE, row.EtaECI)}
		if len(row.Missing) > 0 {
			cells[5] += " (without " + strings.Join(row.Missing, ", ") + ")"
		}
		if withInjection {
			cells = append(cells, fixed3(row.Detection)+" / "+fixed3(row.Waste))
		}
		if len(ba) > 0 {
			if b, ok := baOf[solver{row.Model, row.Mode}]; ok && b.N > 0 {
				cells = append(cells, fmt.Sprintf("%s → %s (n=%d)", fmt3(b.AccBaseline), fmt3(b.AccBudgetAware), b.N),
					fmt3(b.Compliance)+" / "+fmt3(b.ComplianceFinished))
			} else {
				cells = append(cells, "", "")
			}
		}
		t.Rows = append(t.Rows, cells)
	}
	return t
}

// WriteMarkdownTable writes one table as Markdown (title, notes, aligned
// pipe table), as Markdown does for each of its tables.
func WriteMarkdownTable(w io.Writer, t Table) error {
	bw := bufio.NewWriter(w)
	writeMarkdownTable(bw, t)
	return bw.Flush()
}
