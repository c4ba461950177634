package sqldb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/testkit/otheruser"
)

// walFile makes a SQLite file in WAL mode holding one row in dir, closed,
// so that its -wal and -shm files are gone, and returns its path.
func walFile(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "store.db")
	db, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`CREATE TABLE t (v TEXT)`, `INSERT INTO t VALUES ('kept')`} {
		if _, err := db.ExecContext(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// readOnlyCheck opens path ReadOnly, reads its row, tries a write and
// reports what went wrong, if anything; the file must be as it was.
func readOnlyCheck(path string) error {
	ctx := context.Background()
	before, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	db, err := Open(ctx, path, Options{ReadOnly: true, OneConnection: true})
	if err != nil {
		return fmt.Errorf("open: %w", err)
	}
	defer db.Close()
	var v string
	if err := db.QueryRowContext(ctx, `SELECT v FROM t`).Scan(&v); err != nil || v != "kept" {
		return fmt.Errorf("read %q, %v", v, err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO t VALUES ('written')`); err == nil {
		return errors.New("a write was not refused")
	}
	if after, err := os.ReadFile(path); err != nil || string(before) != string(after) {
		return fmt.Errorf("the file changed (%v)", err)
	}
	return nil
}

// TestReadOnly: a file opened ReadOnly is read, refuses writes and is left
// as it was; a missing file is an error, not created.
func TestReadOnly(t *testing.T) {
	if err := readOnlyCheck(walFile(t, t.TempDir())); err != nil {
		t.Error(err)
	}
	missing := filepath.Join(t.TempDir(), "missing.db")
	if _, err := Open(context.Background(), missing, Options{ReadOnly: true}); err == nil {
		t.Error("a missing file opened")
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("a missing file was created: %v", err)
	}
}

// readOnlyFileEnv names the file TestReadOnlyDirectory checks.
const readOnlyFileEnv = "TRIAGE_TEST_READ_ONLY_FILE"

// TestReadOnlyDirectory: a WAL file in a directory this process cannot
// write (so no -shm file can be made beside it) is read, immutable; with a
// -wal file holding writes not yet in it, opening it is an error saying
// so.
func TestReadOnlyDirectory(t *testing.T) {
	check := func() error { return readOnlyCheck(os.Getenv(readOnlyFileEnv)) }
	if otheruser.Child() {
		if err := check(); err != nil {
			t.Fatal(err)
		}
		return
	}
	dir := otheruser.SharedDir(t)
	path := walFile(t, dir)
	env := []string{readOnlyFileEnv + "=" + path}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	if err := otheruser.Do(t, env, check); err != nil {
		t.Fatalf("in a read-only directory: %v", err)
	}

	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+"-wal", []byte("writes not yet merged"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	err := otheruser.Do(t, env, check)
	if err == nil || !strings.Contains(err.Error(), "store.db-wal holds writes not yet merged into it") {
		t.Fatalf("with a -wal file: %v, want the -wal file named", err)
	}
}
