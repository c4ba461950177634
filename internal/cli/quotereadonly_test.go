package cli

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/triage-eval/triage/internal/testkit/otheruser"
)

// readOnlyStudyEnv names the config and the expected quote of
// TestQuoteOfAStudyInAReadOnlyDirectory.
const (
	readOnlyStudyEnv = "TRIAGE_TEST_READ_ONLY_STUDY"
	readOnlyQuoteEnv = "TRIAGE_TEST_READ_ONLY_QUOTE"
)

// TestQuoteOfAStudyInAReadOnlyDirectory: a study whose stores, files and
// directory this user cannot write (another user's, an archive) is quoted
// as its owner quotes it — the same calls, from its run store, its
// ground-truth store and its response cache, read and not written — and
// the quote leaves the directory as it was.
func TestQuoteOfAStudyInAReadOnlyDirectory(t *testing.T) {
	check := func() error {
		env, out, logs := testEnv(nil)
		if err := Run(context.Background(), []string{"quote", "--json", os.Getenv(readOnlyStudyEnv)}, env); err != nil {
			return fmt.Errorf("quote: %v\n%s", err, logs)
		}
		if want := os.Getenv(readOnlyQuoteEnv); out.String() != want {
			return fmt.Errorf("quote of the read-only study:\n%s\nwant the owner's:\n%s", out, want)
		}
		return nil
	}
	if otheruser.InChild(t, check) {
		return
	}
	s := newQuoteStudyIn(t, otheruser.SharedDir(t))
	s.run(t, "baseline")
	s.run(t, "run")
	env, out, logs := testEnv(nil)
	if err := Run(context.Background(), []string{"quote", "--json", s.cfg}, env); err != nil {
		t.Fatalf("quote by the study's owner: %v\n%s", err, logs)
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
	if err := otheruser.Do(t, []string{readOnlyStudyEnv + "=" + s.cfg, readOnlyQuoteEnv + "=" + out.String()}, check); err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, s.dir); after != before {
		t.Fatalf("a quote changed the study's directory:\nbefore %s\nafter  %s", before, after)
	}
}
