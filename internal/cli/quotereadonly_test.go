package cli

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/runs/quote"
	"github.com/triage-eval/triage/internal/store/pgtest"
	"github.com/triage-eval/triage/internal/store/runstore"
	"github.com/triage-eval/triage/internal/testkit/otheruser"
)

// readOnlyStudyEnv names the study's folder of
// TestQuoteOfAStudyInAReadOnlyDirectory; readOnlyQuoteEnv is the prefix of
// the variables that hold its owner's quotes, one per config.
const (
	readOnlyStudyEnv = "TRIAGE_TEST_READ_ONLY_STUDY"
	readOnlyQuoteEnv = "TRIAGE_TEST_READ_ONLY_QUOTE_"
)

// readOnlyConfigs are the configs of the read-only study: its own, and one
// whose run store is in a folder not made yet.
var readOnlyConfigs = []string{"run.yaml", "second.yaml"}

// TestQuoteOfAStudyInAReadOnlyDirectory: a study whose stores, files and
// directory this user cannot write (another user's, an archive) is quoted
// as its owner quotes it — the same calls, from its run store, its
// ground-truth store and its response cache, read and not written, and a
// run store in a folder not made yet read as empty, no folder made for it
// — and the quote leaves the directory as it was.
func TestQuoteOfAStudyInAReadOnlyDirectory(t *testing.T) {
	check := func() error {
		for i, name := range readOnlyConfigs {
			env, out, logs := testEnv(nil)
			if err := Run(context.Background(), []string{"quote", "--json", filepath.Join(os.Getenv(readOnlyStudyEnv), name)}, env); err != nil {
				return fmt.Errorf("quote %s: %v\n%s", name, err, logs)
			}
			if want := os.Getenv(fmt.Sprint(readOnlyQuoteEnv, i)); out.String() != want {
				return fmt.Errorf("quote %s of the read-only study:\n%s\nwant the owner's:\n%s", name, out, want)
			}
		}
		return nil
	}
	if otheruser.InChild(t, check) {
		return
	}
	s := newQuoteStudyIn(t, otheruser.SharedDir(t))
	s.run(t, "baseline")
	s.run(t, "run")
	cfg, err := os.ReadFile(s.cfg)
	if err != nil {
		t.Fatal(err)
	}
	second := strings.Replace(string(cfg), "run_store: run.db", "run_store: runs/second.db", 1)
	if second == string(cfg) {
		t.Fatalf("the study's config names no run_store: run.db:\n%s", cfg)
	}
	if err := os.WriteFile(filepath.Join(s.dir, "second.yaml"), []byte(second), 0o644); err != nil {
		t.Fatal(err)
	}
	childEnv := []string{readOnlyStudyEnv + "=" + s.dir}
	for i, name := range readOnlyConfigs {
		env, out, logs := testEnv(nil)
		if err := Run(context.Background(), []string{"quote", "--json", filepath.Join(s.dir, name)}, env); err != nil {
			t.Fatalf("quote %s by the study's owner: %v\n%s", name, err, logs)
		}
		childEnv = append(childEnv, fmt.Sprint(readOnlyQuoteEnv, i, "=", out.String()))
	}
	if _, err := os.Stat(filepath.Join(s.dir, "runs")); !os.IsNotExist(err) {
		t.Fatalf("the owner's quote made the run store's folder: %v", err)
	}
	before := snapshot(t, s.dir)
	if err := filepath.WalkDir(s.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chmod(path, map[bool]os.FileMode{true: 0o555, false: 0o444}[d.IsDir()])
	}); err != nil {
		t.Fatal(err)
	}
	if err := otheruser.Do(t, childEnv, check); err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, s.dir); after != before {
		t.Fatalf("a quote changed the study's directory:\nbefore %s\nafter  %s", before, after)
	}
}

// TestQuoteBeforeTheFirstRunOnPostgreSQL: a run store on a PostgreSQL
// database that holds none yet is quoted as empty (every planner call still
// to make), and the quote makes none there.
func TestQuoteBeforeTheFirstRunOnPostgreSQL(t *testing.T) {
	location := pgtest.Location(t)
	s := newQuoteStudy(t)
	cfg, err := os.ReadFile(s.cfg)
	if err != nil {
		t.Fatal(err)
	}
	onPostgres := strings.Replace(string(cfg), "run_store: run.db", "run_store: "+location, 1)
	if onPostgres == string(cfg) {
		t.Fatalf("the study's config names no run_store: run.db:\n%s", cfg)
	}
	if err := os.WriteFile(s.cfg, []byte(onPostgres), 0o644); err != nil {
		t.Fatal(err)
	}
	if p1 := s.quote(t)[quote.Planning]; p1.Calls != 4 || p1.Provisional != 4 {
		t.Errorf("phase 1 before anything = %+v, want 4 provisional calls", p1)
	}
	if ok, err := runstore.Exists(context.Background(), location); ok || err != nil {
		t.Errorf("after the quote the database holds a run store: %v, %v", ok, err)
	}
}
