package cli

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/testkit/otheruser"
)

// readOnlyRunEnv names the demo directory and the report directory of
// TestReportOfARunInAReadOnlyDirectory.
const (
	readOnlyRunEnv = "TRIAGE_TEST_READ_ONLY_RUN"
	readOnlyOutEnv = "TRIAGE_TEST_READ_ONLY_OUT"
)

// TestReportOfARunInAReadOnlyDirectory: a report leaves the run's
// directory as it was (no -wal or -shm file left beside its stores); a run
// whose files and directory this user cannot write (another user's, an
// archive) is reported from its run store, its ground-truth store read too
// (no note that it could not be); without --out, the error says the
// default directory cannot be made and to give --out.
func TestReportOfARunInAReadOnlyDirectory(t *testing.T) {
	check := func() error {
		run, out := os.Getenv(readOnlyRunEnv), os.Getenv(readOnlyOutEnv)
		env, stdout, logs := testEnv(nil)
		if err := Run(context.Background(), []string{"report", "--out", out, filepath.Join(run, "run.db")}, env); err != nil {
			return fmt.Errorf("report: %v\n%s", err, logs)
		}
		if strings.Contains(logs.String(), "note:") || !strings.Contains(stdout.String(), "## Summary") {
			return fmt.Errorf("report's console:\n%s\n%s", logs, stdout)
		}
		if _, err := os.Stat(filepath.Join(out, "report.html")); err != nil {
			return err
		}
		err := Run(context.Background(), []string{"report", filepath.Join(run, "run.db")}, env)
		if err == nil || !strings.Contains(err.Error(), "give --out DIR") {
			return fmt.Errorf("without --out: %v, want the hint to give --out", err)
		}
		return nil
	}
	if otheruser.InChild(t, check) {
		return
	}
	run := filepath.Join(otheruser.SharedDir(t), "demo")
	env, _, logs := testEnv(nil)
	if err := Run(context.Background(), []string{"demo", "--progress", "off", "--out", run}, env); err != nil {
		t.Fatalf("demo: %v\n%s", err, logs)
	}
	if err := os.RemoveAll(filepath.Join(run, "report")); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, run)
	env, _, logs = testEnv(nil)
	if err := Run(context.Background(), []string{"report", "--out", filepath.Join(otheruser.SharedDir(t), "by-owner"), filepath.Join(run, "run.db")}, env); err != nil {
		t.Fatalf("report by the run's owner: %v\n%s", err, logs)
	}
	if after := snapshot(t, run); after != before {
		t.Fatalf("a report by the run's owner changed its directory:\nbefore %s\nafter  %s", before, after)
	}
	if strings.Contains(before, "-wal:") || strings.Contains(before, "-shm:") {
		t.Fatalf("the demo and the report left a store's -wal or -shm file: %s", before)
	}
	if err := filepath.WalkDir(run, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chmod(path, map[bool]os.FileMode{true: 0o555, false: 0o444}[d.IsDir()])
	}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(otheruser.SharedDir(t), "report")
	if err := otheruser.Do(t, []string{readOnlyRunEnv + "=" + run, readOnlyOutEnv + "=" + out}, check); err != nil {
		t.Fatal(err)
	}
}

// snapshot lists dir's files, each with its size and digest.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s:%d:%x ", d.Name(), len(data), sha256.Sum256(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
