package htmlreport

import (
	"fmt"
	"html/template"
	"math"

	"github.com/triage-eval/triage/internal/platform/version"
	"github.com/triage-eval/triage/internal/runs/report"
)

// page is what the template renders.
type page struct {
	Title      string
	Notes      []string
	Provenance string
	// Build is the build that wrote the report (version.Info.String), for
	// the footer; empty when unknown.
	Build     string
	CSS       template.CSS
	Nav       []navItem
	Summary   *tableView
	Sections  []sectionView
	AllTables []tableView
}

// navItem links to a section.
type navItem struct{ ID, Title string }

// sectionView is a titled run of figure–table pairs.
type sectionView struct {
	ID, Title string
	Pairs     []pairView
}

// pairView shows figures beside the tables they draw.
type pairView struct {
	Figures []figureView
	Tables  []tableView
}

// figureView is one inlined figure. MaxWidth, in CSS pixels, lets a
// figure grow to zoomLimit times its drawn size and no more (0: no limit).
type figureView struct {
	ID, Title, Caption string
	SVG                template.HTML
	MaxWidth           int
}

// zoomLimit is how far the page may enlarge a figure to fill its column:
// small heat maps get readable, large figures keep their proportions.
const zoomLimit = 1.5

// buildPage lays the page out (see the package documentation).
func buildPage(in Input) (page, error) {
	p := page{Title: in.Title, Notes: in.Notes, Provenance: provenance(in.Report, len(in.Figures))}
	if in.Report.Version != (version.Info{}) {
		p.Build = in.Report.Version.String()
	}
	if p.Title == "" {
		p.Title = "TRIAGE report"
	}
	if t, ok := summary(in.Report, in.BudgetAware); ok {
		p.Summary = &t
		p.Nav = append(p.Nav, navItem{"summary", "Summary"})
	}

	views := make([]figureView, len(in.Figures))
	for i, f := range in.Figures {
		svg, width, err := inlineSVG(f.SVG, f.Title)
		if err != nil {
			return page{}, fmt.Errorf("htmlreport: figure %s: %w", f.Name, err)
		}
		views[i] = figureView{ID: "fig-" + slug(f.Name), Title: f.Title, Caption: f.Caption, SVG: svg, MaxWidth: int(math.Round(width * zoomLimit))}
	}
	tables := in.Report.Tables()
	ids := idMaker{}
	for _, sec := range layout(in, tables) {
		sv := sectionView{ID: sec.id, Title: sec.title}
		for _, pr := range sec.pairs {
			var pv pairView
			for _, i := range pr.figures {
				pv.Figures = append(pv.Figures, views[i])
			}
			for _, t := range pr.tables {
				pv.Tables = append(pv.Tables, viewOf(t, ids.next(sec.id, t.Title)))
			}
			sv.Pairs = append(sv.Pairs, pv)
		}
		if len(sv.Pairs) > 0 {
			p.Sections = append(p.Sections, sv)
			p.Nav = append(p.Nav, navItem{sv.ID, sv.Title})
		}
	}
	for _, t := range append(tables, in.Report.CellsTable()) {
		p.AllTables = append(p.AllTables, viewOf(t, ids.next("all", t.Title)))
	}
	p.Nav = append(p.Nav, navItem{"all-tables", "All tables"})
	return p, nil
}

// idMaker gives tables unique ids: "t-<section>-<title slug>", numbered
// when a slug repeats.
type idMaker map[string]int

func (m idMaker) next(section, title string) string {
	id := "t-" + section + "-" + slug(title)
	m[id]++
	if n := m[id]; n > 1 {
		id += fmt.Sprintf("-%d", n)
	}
	return id
}

// provenance says where the page's numbers come from, and nothing more.
func provenance(rep report.Report, nFigures int) string {
	b := rep.Bootstrap
	return fmt.Sprintf("Every number on this page is computed from the run's stored results by its report: %s cells (a solver, dataset, pool, α, strategy and variant each, as triage run counts them) and %s unsolvable-injection cells, as %s means over pools (one per regime), and the base accuracy of %d (solver, dataset) pairs; %d figures drawn from them. Intervals: %g%% percentile bootstrap over pools, %s resamples, seed %d. The page states what the report holds and nothing beyond it.",
		report.FormatCount(report.PlannedCells(rep.Cells)), report.FormatCount(report.PlannedCells(rep.Injection)), report.FormatCount(len(rep.Cells)+len(rep.Injection)),
		len(rep.Accuracy), nFigures, b.LevelPercent(), report.FormatCount(b.Resamples), b.Seed)
}
