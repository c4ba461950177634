package orchestrator_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/runs/report"
)

// TestPublicTestsOnlyCounted: the accuracy row of each (solver, dataset)
// counts its gradeable problems graded on public tests alone (code problems
// without hidden tests), and the report's accuracy table shows the count.
// beta-03 has no hidden tests but the standard solver's record of it is not
// gradeable; beta-05 has hidden tests.
func TestPublicTestsOnlyCounted(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(planningModel))
	dir := t.TempDir()
	cfg := writeFixture(t, dir, srv.URL())
	code := func(private string) string {
		return `"grading":{"kind":"code","code":{"testtype":"stdin","public_tests":[{"input":"1\n","output":"1\n"}]` + private + `}},`
	}
	path := filepath.Join(dir, "problems.jsonl")
	editFile(t, path, `{"id":"beta-03","dataset":"beta",`, `{"id":"beta-03","dataset":"beta",`+code(""))
	editFile(t, path, `{"id":"beta-04","dataset":"beta",`, `{"id":"beta-04","dataset":"beta",`+code(""))
	editFile(t, path, `{"id":"beta-05","dataset":"beta",`, `{"id":"beta-05","dataset":"beta",`+code(`,"private_tests":[{"input":"2\n","output":"2\n"}]`))
	rs := runOnce(t, cfg)
	res, err := rs.Results(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"standard/alpha": 0, "extended/alpha": 0, "standard/beta": 1, "extended/beta": 2}
	for _, a := range res.Accuracy {
		k := a.Mode + "/" + a.Dataset
		if w, ok := want[k]; !ok || a.PublicTestsOnly != w {
			t.Errorf("%s: %d graded on public tests only, want %d", k, a.PublicTestsOnly, w)
		}
		delete(want, k)
	}
	if len(want) > 0 {
		t.Errorf("no accuracy rows for %v", want)
	}
	tab := report.Build(res.Records, res.Accuracy).AccuracyTable()
	for i, want := range []string{"m | extended | ", "m | standard | "} {
		text := strings.Join(tab.Rows[i], " | ")
		count := map[int]string{0: "public-only 2", 1: "public-only 1"}[i]
		if !strings.HasPrefix(text, want) || !strings.HasSuffix(text, count) || strings.Count(text, "public-only") != 1 {
			t.Errorf("row %q; want %q…%q, and none for alpha", text, want, count)
		}
	}
}
