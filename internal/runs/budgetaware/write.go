package budgetaware

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// Markdown writes rows as a Markdown table.
func Markdown(w io.Writer, rows []Row) error {
	fmt.Fprintln(w, "compliance: output ≤ a_i over all N (the paper's formula); finished: over the re-solves that ended by themselves (not cut at max_tokens); uncapped: re-solves with a_i ≥ max_tokens, which cannot break their allocation.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| model | mode | dataset | N | Acc baseline | Acc budget-aware | compliance | compliance (finished) | finished | uncapped | kept correct | lost correct | newly correct | still wrong | truncated | not gradeable |")
	fmt.Fprintln(w, "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rows {
		if _, err := fmt.Fprintf(w, "| %s | %s | %s | %d | %.3f | %.3f | %.3f | %.3f | %d | %d | %d | %d | %d | %d | %d | %d |\n",
			r.Model, r.Mode, r.Dataset, r.N, r.AccBaseline, r.AccBudgetAware, r.Compliance, r.ComplianceFinished, r.Finished, r.Uncapped,
			r.KeptCorrect, r.LostCorrect, r.NewlyCorrect, r.StillWrong, r.Truncated, r.NotGradeable); err != nil {
			return err
		}
	}
	return nil
}

// FileNames are the files WriteDir writes, in order.
var FileNames = []string{"budget_aware.md", "budget_aware.csv", "budget_aware.json"}

// WriteDir writes FileNames (budget_aware.md, budget_aware.csv and
// budget_aware.json) into dir, creating it.
func WriteDir(dir string, rows []Row) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	md, err := os.Create(filepath.Join(dir, FileNames[0]))
	if err != nil {
		return err
	}
	if err := Markdown(md, rows); err != nil {
		_ = md.Close() // the write's error is the one to report
		return err
	}
	if err := md.Close(); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, FileNames[1]))
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	w.Write([]string{"model", "mode", "dataset", "n", "acc_baseline", "acc_budget_aware", "compliance", "compliance_finished", "finished", "uncapped", "kept_correct", "lost_correct", "newly_correct", "still_wrong", "truncated", "not_gradeable"})
	for _, r := range rows {
		w.Write([]string{r.Model, r.Mode, r.Dataset, strconv.Itoa(r.N), ff(r.AccBaseline), ff(r.AccBudgetAware), ff(r.Compliance),
			ff(r.ComplianceFinished), strconv.Itoa(r.Finished), strconv.Itoa(r.Uncapped),
			strconv.Itoa(r.KeptCorrect), strconv.Itoa(r.LostCorrect), strconv.Itoa(r.NewlyCorrect), strconv.Itoa(r.StillWrong),
			strconv.Itoa(r.Truncated), strconv.Itoa(r.NotGradeable)})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		_ = f.Close() // the write's error is the one to report
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	raw, err := json.MarshalIndent(rows, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, FileNames[2]), append(raw, '\n'), 0o644)
}

func ff(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
