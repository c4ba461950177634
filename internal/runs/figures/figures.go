package figures

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/runs/budgetaware"
	"github.com/triage-eval/triage/internal/runs/report"
)

// DefaultDPI is the resolution of the PNGs when Options.DPI is 0.
const DefaultDPI = 150

// Kind says which figure of SPEC §8 a Figure is.
type Kind string

// The figures of SPEC §8.
const (
	// KindEfficiency is figure 1: η_U / η_E bars at one α.
	KindEfficiency Kind = "efficiency"
	// KindRegret is figure 2: R̃_U / R̃_E bars at one α.
	KindRegret Kind = "regret"
	// KindAccuracyHeatmap is figure 3's base-accuracy heat map.
	KindAccuracyHeatmap Kind = "accuracy_heatmap"
	// KindEtaHeatmap is figure 3's η heat map of one regime.
	KindEtaHeatmap Kind = "eta_heatmap"
	// KindInjection is figure 4: (D, W) trajectories.
	KindInjection Kind = "injection"
	// KindBudgetAwareSolvers is figure 5 per solver.
	KindBudgetAwareSolvers Kind = "budget_aware_solvers"
	// KindBudgetAwareDatasets is figure 5 per (solver, dataset).
	KindBudgetAwareDatasets Kind = "budget_aware_datasets"
	// KindLosses is figure 6: the regret decomposition at one α.
	KindLosses Kind = "losses"
	// KindSelfKnowledge is figure 7: η_U beside the partial-information
	// references at one α.
	KindSelfKnowledge Kind = "self_knowledge"
)

// Figure is one drawn figure.
type Figure struct {
	// Name is the file stem, e.g. "efficiency_llm_default_a0.5".
	Name string
	// Title is a one-line title (also drawn at the top of the image).
	Title string
	// Caption says what a bar, cell or marker means, how many pools the
	// means average and at which α.
	Caption string
	// Kind, Strategy, Variant, Alpha and Regime say what part of the
	// report the figure shows, so that a report can put it beside its
	// table. Strategy and Variant are set for kinds efficiency, regret,
	// eta_heatmap, injection, losses and self_knowledge (the planner's);
	// Alpha for efficiency, regret, injection, losses and self_knowledge;
	// Regime ("U" or "E") for eta_heatmap.
	Kind     Kind
	Strategy vocab.Strategy
	Variant  vocab.Variant
	Alpha    float64
	Regime   vocab.Regime
	// SVG and PNG are the figure, drawn once for both.
	SVG, PNG []byte
}

// Options adjust Draw.
type Options struct {
	// DPI is the PNG resolution; 0 means DefaultDPI.
	DPI int
}

// drawing is a figure before rendering: its metadata and its sheet.
type drawing struct {
	fig   Figure
	sheet sheet
}

// Draw draws every figure of SPEC §8 that rep and ba support, in SPEC
// order (see the package documentation), at rep's headline α and for its
// figure scopes (figure 6: its headline scopes, as the report's tables);
// figures without data are left out. ba are budgetaware.Summarize's rows (nil when there was no
// re-solve). The result is deterministic.
func Draw(rep report.Report, ba []budgetaware.Row, opts Options) ([]Figure, error) {
	if opts.DPI <= 0 {
		opts.DPI = DefaultDPI
	}
	var ds []drawing
	for _, m := range []barMetric{efficiencyMetric(), regretMetric()} {
		for _, sv := range rep.FigureScopes {
			if d, ok := barFigure(rep, sv, rep.Alpha, m); ok {
				ds = append(ds, d)
			}
		}
	}
	if d, ok := accuracyHeatmap(rep); ok {
		ds = append(ds, d)
	}
	for _, sv := range rep.FigureScopes {
		for _, regime := range vocab.Regimes() {
			if d, ok := etaHeatmap(rep, sv, regime); ok {
				ds = append(ds, d)
			}
		}
	}
	ds = append(ds, injectionFigures(rep)...)
	ds = append(ds, budgetAwareFigures(ba)...)
	for _, sv := range rep.HeadlineScopes {
		if d, ok := lossFigure(rep, sv, rep.Alpha); ok {
			ds = append(ds, d)
		}
	}
	if d, ok := selfKnowledgeFigure(rep, rep.Alpha); ok {
		ds = append(ds, d)
	}

	figs := make([]Figure, 0, len(ds))
	for _, d := range ds {
		svg, png, err := render(d.sheet, opts.DPI)
		if err != nil {
			return nil, fmt.Errorf("figure %s: %w", d.fig.Name, err)
		}
		f := d.fig
		f.SVG, f.PNG = svg, png
		figs = append(figs, f)
	}
	return figs, nil
}

// IndexName is the file WriteDir writes beside the figures: a Markdown
// list of every figure with its title, caption and files.
const IndexName = "figures.md"

// WriteDir writes each figure as NAME.svg and NAME.png into dir (created
// if needed), and IndexName listing them. Names must be distinct.
func WriteDir(dir string, figs []Figure) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	seen := map[string]bool{}
	var index bytes.Buffer
	index.WriteString("# Figures\n")
	for _, f := range figs {
		if f.Name == "" || seen[f.Name] {
			return fmt.Errorf("figures: empty or repeated figure name %q", f.Name)
		}
		seen[f.Name] = true
		err := errors.Join(
			os.WriteFile(filepath.Join(dir, f.Name+".svg"), f.SVG, 0o644),
			os.WriteFile(filepath.Join(dir, f.Name+".png"), f.PNG, 0o644),
		)
		if err != nil {
			return err
		}
		fmt.Fprintf(&index, "\n## %s\n\n![%s](%s.svg) ([PNG](%s.png))\n\n%s\n", f.Title, f.Title, f.Name, f.Name, f.Caption)
	}
	return os.WriteFile(filepath.Join(dir, IndexName), index.Bytes(), 0o644)
}
