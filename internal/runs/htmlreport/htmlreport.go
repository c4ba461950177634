package htmlreport

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io"

	"github.com/triage-eval/triage/internal/runs/budgetaware"
	"github.com/triage-eval/triage/internal/runs/figures"
	"github.com/triage-eval/triage/internal/runs/report"
)

// FileName is the name report directories give the page.
const FileName = "report.html"

//go:embed templates/report.html.tmpl templates/style.css
var templateFS embed.FS

// Input is what Write renders.
type Input struct {
	// Title heads the page; empty means "TRIAGE report".
	Title string
	// Report is the run's report: every number on the page comes from it
	// or from BudgetAware.
	Report report.Report
	// BudgetAware are budgetaware.Summarize's rows; nil without a
	// budget-aware re-solve.
	BudgetAware []budgetaware.Row
	// Figures are figures.Draw's figures; each is shown once, beside its
	// tables.
	Figures []figures.Figure
	// Notes are shown first, as warnings: stale results, a synthetic
	// sample, …
	Notes []string
	// Spend is the table of what the run's model calls cost (SPEC §9);
	// nil when the run store records none.
	Spend *report.Table
}

// Write renders in as one self-contained HTML page to w. It fails, writing
// nothing, when a figure's SVG is not safe to inline (see inlineSVG).
func Write(w io.Writer, in Input) error {
	p, err := buildPage(in)
	if err != nil {
		return err
	}
	tmpl, err := template.ParseFS(templateFS, "templates/report.html.tmpl")
	if err != nil {
		return fmt.Errorf("htmlreport: %w", err)
	}
	css, err := templateFS.ReadFile("templates/style.css")
	if err != nil {
		return fmt.Errorf("htmlreport: %w", err)
	}
	p.CSS = template.CSS(css)
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, p); err != nil {
		return fmt.Errorf("htmlreport: %w", err)
	}
	_, err = w.Write(buf.Bytes())
	return err
}
