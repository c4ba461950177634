package cli

import (
	"context"
	"encoding/json"
	"errors"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/platform/version"
	"github.com/triage-eval/triage/internal/store/runstore"
)

func TestVersion(t *testing.T) {
	want := "triage " + version.Current().String() + "\n"
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		env, out, logs := testEnv(nil)
		if err := Run(context.Background(), args, env); err != nil || out.String() != want || logs.String() != "" {
			t.Errorf("%v: %v, stdout %q, stderr %q; want %q", args, err, out, logs, want)
		}
	}
	env, _, _ := testEnv(nil)
	if err := Run(context.Background(), []string{"version", "extra"}, env); !errors.Is(err, ErrUsage) {
		t.Errorf("version with an argument: %v, want a usage error", err)
	}
}

// TestBuildIsRecorded: a command that works says which build runs it;
// the run store records the build of each command and stamps every record
// (SPEC §10: protocol, SPEC revision, build), and the report names
// the build that wrote it and those that touched the run (cells.json,
// report.html's footer, the printed summary).
func TestBuildIsRecorded(t *testing.T) {
	_, config := plannedRun(t)
	build := version.Current()
	env, _, logs := testEnv(map[string]string{"Q_API_KEY": "k"})
	if err := Run(context.Background(), []string{"run", "--progress", "off", config}, env); err != nil {
		t.Fatalf("run: %v\n%s", err, logs)
	}
	if first, _, _ := strings.Cut(logs.String(), "\n"); first != "triage "+build.String() {
		t.Errorf("the run's first line is %q, want the build", first)
	}
	rs, err := runstore.Open(context.Background(), filepath.Join(filepath.Dir(config), "run.db"))
	if err != nil {
		t.Fatal(err)
	}
	builds, err := rs.Builds(context.Background())
	if err != nil || len(builds) != 1 || builds[0].Build != build || builds[0].Command != "run" {
		t.Fatalf("builds = %v, %v; want this build's run", builds, err)
	}
	if build.Protocol != version.Protocol || build.SpecRevision != version.SpecRevision || !strings.Contains(build.String(), version.Protocol+" spec "+version.SpecRevision) {
		t.Errorf("the build %+v does not name the protocol and its SPEC revision", build)
	}
	res, err := rs.Results(context.Background())
	// The same build ran another command on the run: still one build.
	if err := rs.RecordBuild(context.Background(), build, "budget-aware", time.Now()); err != nil {
		t.Fatal(err)
	}
	rs.Close()
	if err != nil || len(res.Records) == 0 {
		t.Fatalf("results: %d records, %v", len(res.Records), err)
	}
	for _, r := range res.Records {
		if r.Version == nil || *r.Version != build.Stamp() {
			t.Fatalf("a stored record's version is %+v, want %+v", r.Version, build.Stamp())
		}
	}

	env, out, logs := testEnv(nil)
	dir := t.TempDir()
	if err := Run(context.Background(), []string{"report", "--out", dir, config}, env); err != nil {
		t.Fatalf("report: %v\n%s", err, logs)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "cells.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Version version.Info `json:"version"`
		Builds  []string     `json:"builds"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != build || len(doc.Builds) != 2 || doc.Builds[0] != builds[0].String() || !strings.HasPrefix(doc.Builds[1], "budget-aware by "+build.String()) {
		t.Errorf("cells.json: version %+v, builds %q; want %+v, %q and its budget-aware", doc.Version, doc.Builds, build, builds[0])
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "<footer>Written by triage "+html.EscapeString(build.String())) {
		t.Errorf("report.html's footer does not name the build")
	}
	if !strings.Contains(out.String(), "Written by triage "+build.String()+"; the run's results come from 1 build(s)") {
		t.Errorf("the summary does not name the build:\n%s", out)
	}
}
