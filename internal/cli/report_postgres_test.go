package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/store/pgtest"
	"github.com/triage-eval/triage/internal/store/runstore"
)

// TestReportReadsAPostgresRunStore: a run whose run_store is PostgreSQL is
// reported from its config (the files beside the config) or from the URL
// with --out; a URL without --out is a usage error, and a schema holding
// no run is an error that creates nothing there.
func TestReportReadsAPostgresRunStore(t *testing.T) {
	ctx := context.Background()
	location := pgtest.Location(t)
	ms := newModelServer(t, 0)
	dir := t.TempDir()
	config := writeGrid(t, dir, ms.URL)
	raw, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config, []byte(strings.Replace(string(raw), "run_store: run.db", "run_store: "+location, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, error) {
		env, out, logs := testEnv(nil)
		err := Run(ctx, args, env)
		return out.String() + logs.String(), err
	}
	if out, err := run("run", "--progress", "off", config); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}

	if out, err := run("report", config); err != nil {
		t.Fatalf("report CONFIG: %v\n%s", err, out)
	}
	beside := filepath.Join(dir, "run.report") // beside run.yaml
	if _, err := os.Stat(filepath.Join(beside, "report.html")); err != nil {
		t.Errorf("the report is not beside the config: %v", err)
	}
	if _, err := run("report", location); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "--out") {
		t.Errorf("report URL without --out: %v, want a usage error naming --out", err)
	}
	out := filepath.Join(t.TempDir(), "r")
	if log, err := run("report", "--out", out, location); err != nil {
		t.Fatalf("report --out DIR URL: %v\n%s", err, log)
	}
	if _, err := os.Stat(filepath.Join(out, "report.html")); err != nil {
		t.Errorf("report --out: %v", err)
	}
	if _, err := run("report", "--alpha", "2", config); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "--alpha") {
		t.Errorf("report --alpha 2: %v, want a usage error naming --alpha", err)
	}

	empty := pgtest.Location(t)
	if _, err := run("report", "--out", t.TempDir(), empty); err == nil || !strings.Contains(err.Error(), "holds no run store") {
		t.Errorf("report of an empty schema: %v, want it to hold no run store", err)
	}
	if ok, err := runstore.Exists(ctx, empty); err != nil || ok {
		t.Errorf("after the report, the empty schema holds a run store (%v, %v): a report must create nothing", ok, err)
	}
}
