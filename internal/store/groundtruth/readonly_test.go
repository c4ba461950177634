package groundtruth_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/groundtruth/storetest"
	"github.com/triage-eval/triage/internal/testkit/otheruser"
)

// readOnlyStoreEnv names the store TestSQLiteInAReadOnlyDirectory checks.
const readOnlyStoreEnv = "TRIAGE_TEST_READ_ONLY_GT"

// TestSQLiteInAReadOnlyDirectory: a SQLite store in a directory this user
// cannot write is refused by Open, as it cannot be written; OpenToRead
// opens it — its records are listed — and an import into it fails.
func TestSQLiteInAReadOnlyDirectory(t *testing.T) {
	gen := storetest.Gen{Models: 1, Datasets: 1, Problems: 20}
	records := 0
	for range gen.Records() {
		records++
	}
	check := func() error {
		ctx := context.Background()
		path := os.Getenv(readOnlyStoreEnv)
		if s, err := groundtruth.Open(ctx, path); err == nil {
			s.Close()
			return fmt.Errorf("Open opened a store it cannot write")
		}
		s, err := groundtruth.OpenToRead(ctx, path)
		if err != nil {
			return fmt.Errorf("OpenToRead: %w", err)
		}
		defer s.Close()
		page, err := s.List(ctx, groundtruth.ListQuery{})
		if err != nil || len(page.Records) != records {
			return fmt.Errorf("listed %d records, %v; want %d", len(page.Records), err, records)
		}
		if _, err := s.Import(ctx, storetest.Gen{Models: 1, Datasets: 1, Problems: 5, Variant: 1}.Records()); err == nil {
			return fmt.Errorf("an import into a store this user cannot write succeeded")
		}
		return nil
	}
	if otheruser.InChild(t, check) {
		return
	}
	dir := otheruser.SharedDir(t)
	path := filepath.Join(dir, "gt.db")
	s, err := groundtruth.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Import(context.Background(), gen.Records()); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	if err := otheruser.Do(t, []string{readOnlyStoreEnv + "=" + path}, check); err != nil {
		t.Fatal(err)
	}
}
