package figures

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/runs/report"
	"github.com/triage-eval/triage/internal/testkit/golden"
)

// drawFixture draws every figure of the hand-made run with opts.
func drawFixture(t *testing.T, rep report.Report, opts Options) []Figure {
	t.Helper()
	figs, err := Draw(rep, fixtureBudgetAware(), opts)
	if err != nil {
		t.Fatalf("Draw: %v", err)
	}
	return figs
}

// TestFixtureFigures draws the hand-made run once, at the default
// resolution, and checks the drawing from every side.
func TestFixtureFigures(t *testing.T) {
	rep := fixtureReport()
	figs := drawFixture(t, rep, Options{})
	t.Run("names", func(t *testing.T) { checkNames(t, figs) })
	t.Run("golden", func(t *testing.T) { checkGolden(t, figs) })
	t.Run("eta heat maps print the tables", func(t *testing.T) { checkEtaHeatmaps(t, rep, figs) })
	t.Run("accuracy heat map prints the table", func(t *testing.T) { checkAccuracyHeatmap(t, rep, figs) })
	t.Run("PNGs decode and are not blank", func(t *testing.T) { checkPNGs(t, figs) })
}

// checkNames pins which figures the hand-made run yields, in order.
func checkNames(t *testing.T, figs []Figure) {
	var got []string
	for _, f := range figs {
		got = append(got, f.Name)
	}
	want := []string{
		"efficiency_llm_default_a0.5",
		"regret_llm_default_a0.5",
		"heatmap_accuracy",
		"heatmap_eta_u_llm_default",
		"heatmap_eta_e_llm_default",
		"injection_llm_default_a0.5",
		"budget_aware_solvers",
		"budget_aware_datasets",
		"losses_llm_default_a0.5",
		"self_knowledge_llm_default_a0.5",
	}
	if !slices.Equal(got, want) {
		t.Errorf("figures:\n got %q\nwant %q", got, want)
	}
}

// checkGolden compares every figure's SVG, and the captions index that
// WriteDir writes, with the files under testdata/; -update rewrites them.
func checkGolden(t *testing.T, figs []Figure) {
	dir := t.TempDir()
	if err := WriteDir(dir, figs); err != nil {
		t.Fatalf("WriteDir: %v", err)
	}
	index, err := os.ReadFile(filepath.Join(dir, IndexName))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{IndexName: index}
	for _, f := range figs {
		files[f.Name+".svg"] = f.SVG
	}
	for name, got := range files {
		golden.File(t, filepath.Join("testdata", name), got)
	}
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, ok := files[e.Name()]; !ok && (strings.HasSuffix(e.Name(), ".svg") || e.Name() == IndexName) {
			t.Errorf("testdata/%s is no figure of the fixture any more: remove it", e.Name())
		}
	}
}

// TestDrawIsDeterministic draws the fixture twice (PNGs at a low
// resolution, to keep the race-enabled run short): every byte of every SVG
// and PNG must agree.
func TestDrawIsDeterministic(t *testing.T) {
	rep := fixtureReport()
	a, b := drawFixture(t, rep, Options{DPI: 36}), drawFixture(t, rep, Options{DPI: 36})
	if len(a) != len(b) {
		t.Fatalf("%d figures, then %d", len(a), len(b))
	}
	for i := range a {
		if !bytes.Equal(a[i].SVG, b[i].SVG) || !bytes.Equal(a[i].PNG, b[i].PNG) || a[i].Caption != b[i].Caption {
			t.Errorf("%s: two drawings differ", a[i].Name)
		}
	}
}
