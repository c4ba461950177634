package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/runs/quote"
)

// TestStudyWithSQLitePrefixedStores: a config that names its stores
// sqlite:PATH, PATH relative to the config, runs, quotes and reports with
// the stores beside the config — not in a folder named "sqlite:" — and
// the run's closing line names a run store that triage report reads.
func TestStudyWithSQLitePrefixedStores(t *testing.T) {
	s := newQuoteStudy(t)
	cfg, err := os.ReadFile(s.cfg)
	if err != nil {
		t.Fatal(err)
	}
	prefixed := strings.NewReplacer("run_store: run.db", "run_store: sqlite:run.db", "ground_truth_store: gt.db", "ground_truth_store: sqlite:gt.db", "llm_cache: llm-cache.db", "llm_cache: sqlite:llm-cache.db").Replace(string(cfg))
	if strings.Count(prefixed, "sqlite:") != 3 {
		t.Fatalf("the study's config did not take the prefixes:\n%s", prefixed)
	}
	if err := os.WriteFile(s.cfg, []byte(prefixed), 0o644); err != nil {
		t.Fatal(err)
	}
	s.run(t, "baseline")
	s.run(t, "run")
	if p1 := s.quote(t)[quote.Planning]; p1.Calls != 0 {
		t.Errorf("phase 1 after the run = %+v, want 0 calls", p1)
	}
	for _, name := range []string{"run.db", "gt.db", "llm-cache.db"} {
		if _, err := os.Stat(filepath.Join(s.dir, name)); err != nil {
			t.Errorf("store %s not beside the config: %v", name, err)
		}
	}
	env, _, logs := testEnv(nil)
	if err := Run(context.Background(), []string{"report", s.cfg}, env); err != nil {
		t.Fatalf("report: %v\n%s", err, logs)
	}
	if _, err := os.Stat(filepath.Join(s.dir, "run.db.report", "report.html")); err != nil {
		t.Errorf("the report is not beside the run store: %v", err)
	}
	arg := reportArg(mustLoad(t, s.cfg))
	if arg != filepath.Join(s.dir, "run.db") {
		t.Errorf("reportArg = %q, want the run store's file", arg)
	}
	// Given the run store, the report finds the config its manifest
	// records, prefixes and all: no note that it could not.
	env, _, logs = testEnv(nil)
	if err := Run(context.Background(), []string{"report", "--out", filepath.Join(s.dir, "by-store"), arg}, env); err != nil {
		t.Fatalf("report %s: %v\n%s", arg, err, logs)
	}
	if strings.Contains(logs.String(), "note:") {
		t.Errorf("report of the run store:\n%s", logs)
	}
	// The run store given with its prefix, as the config names it, is the
	// same run store; with the prefix, only a SQLite file will do.
	env, _, logs = testEnv(nil)
	if err := Run(context.Background(), []string{"report", "--out", filepath.Join(s.dir, "by-prefixed-store"), "sqlite:" + arg}, env); err != nil {
		t.Fatalf("report sqlite:%s: %v\n%s", arg, err, logs)
	}
	if _, err := os.Stat(filepath.Join(s.dir, "by-prefixed-store", "report.html")); err != nil {
		t.Errorf("report sqlite:%s wrote no report: %v", arg, err)
	}
	for _, tc := range []struct{ arg, want string }{
		{"sqlite:" + filepath.Join(s.dir, "nope.db"), "nope.db: no such file (expected a run store)"},
		{"sqlite:" + s.cfg, "is not a SQLite database (sqlite: names a run store)"},
	} {
		env, _, _ = testEnv(nil)
		if err := Run(context.Background(), []string{"report", tc.arg}, env); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("report %s: %v; want it to say %q", tc.arg, err, tc.want)
		}
	}
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "sqlite:") {
			t.Errorf("the study holds %s: a store's prefix taken for a folder", e.Name())
		}
	}
}

// mustLoad reads the run config at path.
func mustLoad(t *testing.T, path string) *orchestrator.Config {
	t.Helper()
	cfg, err := readConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
