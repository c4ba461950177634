package cli

import (
	"encoding/csv"
	"fmt"
	"io"
	"path/filepath"
	"strconv"

	"github.com/triage-eval/triage/internal/runs/report"
	"github.com/triage-eval/triage/internal/store/runstore"
)

// spendFiles are the report's files of what the run's model calls cost.
var spendFiles = []string{"spend.md", "spend.csv"}

// spendTable is the run's settled spend per phase and endpoint, with a
// total row.
func spendTable(rows []runstore.SpendRow) report.Table {
	t := report.Table{
		Title:  "Spend: what the run's model calls cost (SPEC §9)",
		Notes:  []string{"From the providers' usage at the endpoints' prices (endpoints.json), per call made; responses from the cache cost nothing and are not counted. $0 where an endpoint has no price."},
		Header: []string{"phase", "endpoint", "calls", "input tokens", "output tokens", "dollars"},
		Align:  "llrrrr",
	}
	var total runstore.SpendRow
	for _, r := range rows {
		t.Rows = append(t.Rows, spendCells(r.Phase, r.Endpoint, r))
		total.Calls += r.Calls
		total.InputTokens += r.InputTokens
		total.OutputTokens += r.OutputTokens
		total.Dollars += r.Dollars
	}
	t.Rows = append(t.Rows, spendCells("total", "", total))
	return t
}

func spendCells(phase, endpoint string, r runstore.SpendRow) []string {
	return []string{phase, endpoint, strconv.FormatInt(r.Calls, 10), strconv.FormatInt(r.InputTokens, 10), strconv.FormatInt(r.OutputTokens, 10), fmt.Sprintf("%.4f", r.Dollars)}
}

// writeSpend writes spend.md and spend.csv into dir.
func writeSpend(dir string, rows []runstore.SpendRow) error {
	t := spendTable(rows)
	if err := writeFileAtomic(filepath.Join(dir, "spend.md"), func(w io.Writer) error {
		fmt.Fprintf(w, "# %s\n\n", t.Title)
		return report.WriteMarkdownTable(w, t)
	}); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, "spend.csv"), func(w io.Writer) error {
		cw := csv.NewWriter(w)
		if err := cw.Write(t.Header); err != nil {
			return err
		}
		for _, r := range rows {
			if err := cw.Write(append(spendCells(r.Phase, r.Endpoint, r)[:5], strconv.FormatFloat(r.Dollars, 'f', -1, 64))); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	})
}
