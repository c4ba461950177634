package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/triage-eval/triage/internal/testkit/otheruser"
)

// walFile makes a SQLite file in WAL mode in dir holding rows 1..n in
// table t, closed, so that its -wal and -shm files are gone, and returns
// its path.
func walFile(t *testing.T, dir string, n int) string {
	t.Helper()
	path := filepath.Join(dir, "store.db")
	db, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(context.Background(), `CREATE TABLE t (v INTEGER)`); err != nil {
		t.Fatal(err)
	}
	insert(t, db.db, 1, n)
	return path
}

// insert adds rows from..to to table t of db.
func insert(t *testing.T, db *sql.DB, from, to int) {
	t.Helper()
	for v := from; v <= to; v++ {
		if _, err := db.Exec(`INSERT INTO t VALUES (?)`, v); err != nil {
			t.Fatal(err)
		}
	}
}

// unmergedWAL adds rows from..to to the WAL file at path and leaves them
// in its -wal file, as a writer that crashed after committing them would
// (closing the connection merges them, so the files are taken as they
// are before it closes, then put back).
func unmergedWAL(t *testing.T, path string, from, to int) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=wal_autocheckpoint(0)")
	if err != nil {
		t.Fatal(err)
	}
	insert(t, db, from, to)
	leaveAsCrashed(t, path, []string{"", "-wal"}, func() error {
		err := db.Close()
		_ = os.Remove(path + "-shm")
		return err
	})
}

// hotJournal leaves the file at path in rollback-journal mode with a
// transaction half written, as a crashed writer would: it deleted every
// row of t, and enough rows of another table to push that page out of its
// cache into the file, before the copies of the file and its -journal that
// replace them were taken.
func hotJournal(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(DELETE)&_pragma=cache_size(10)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`DELETE FROM t`, `CREATE TABLE u (v TEXT)`} {
		if _, err := tx.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	for range 2000 {
		if _, err := tx.Exec(`INSERT INTO u VALUES (randomblob(100))`); err != nil {
			t.Fatal(err)
		}
	}
	leaveAsCrashed(t, path, []string{"", "-journal"}, tx.Rollback)
}

// leaveAsCrashed leaves the files path+suffix as they are now, once end
// has run: what a writer that crashed now, before end, would leave.
func leaveAsCrashed(t *testing.T, path string, suffixes []string, end func() error) {
	t.Helper()
	saved := map[string][]byte{}
	for _, suffix := range suffixes {
		data, err := os.ReadFile(path + suffix)
		if err != nil {
			t.Fatal(err)
		}
		saved[suffix] = data
	}
	if err := end(); err != nil {
		t.Fatal(err)
	}
	for suffix, data := range saved {
		if err := os.WriteFile(path+suffix, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// readOnlyEnv names what readOnlyCheck reads in a test run as another
// user: the file and the count and sum of the rows it must find.
const (
	readOnlyFileEnv = "TRIAGE_TEST_READ_ONLY_FILE"
	readOnlyRowsEnv = "TRIAGE_TEST_READ_ONLY_ROWS"
)

// readOnlyCheck opens the file readOnlyFileEnv names ReadOnly, checks that
// table t holds rows 1..readOnlyRowsEnv and that a write is refused.
func readOnlyCheck() error {
	ctx := context.Background()
	path := os.Getenv(readOnlyFileEnv)
	rows, err := strconv.Atoi(os.Getenv(readOnlyRowsEnv))
	if err != nil {
		return err
	}
	db, err := Open(ctx, path, Options{ReadOnly: true, OneConnection: true})
	if err != nil {
		return fmt.Errorf("open: %w", err)
	}
	defer db.Close()
	var n, sum int
	if err := db.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(v), 0) FROM t`).Scan(&n, &sum); err != nil {
		return fmt.Errorf("read: %w", err)
	}
	if n != rows || sum != rows*(rows+1)/2 {
		return fmt.Errorf("read %d rows summing to %d, want rows 1..%d", n, sum, rows)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO t VALUES (0)`); err == nil {
		return errors.New("a write was not refused")
	}
	return nil
}

// files lists dir's entries.
func files(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestReadOnly: a file opened ReadOnly is read — with the committed rows
// a crashed writer left in its -wal, without the rows of a transaction it
// left half written — refuses writes and leaves no file behind; a missing
// file is an error, not created.
func TestReadOnly(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, path string)
		rows    int
	}{
		{name: "merged", rows: 10},
		{name: "committed rows in the -wal", prepare: func(t *testing.T, path string) { unmergedWAL(t, path, 11, 30) }, rows: 30},
		{name: "a hot journal", prepare: hotJournal, rows: 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := walFile(t, dir, 10)
			if tc.prepare != nil {
				tc.prepare(t, path)
			}
			t.Setenv(readOnlyFileEnv, path)
			t.Setenv(readOnlyRowsEnv, strconv.Itoa(tc.rows))
			if err := readOnlyCheck(); err != nil {
				t.Fatal(err)
			}
			if got := files(t, dir); !slices.Equal(got, []string{"store.db"}) {
				t.Errorf("left %q, want only store.db", got)
			}
		})
	}
	missing := filepath.Join(t.TempDir(), "missing.db")
	if _, err := Open(context.Background(), missing, Options{ReadOnly: true}); err == nil {
		t.Error("a missing file opened")
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("a missing file was created: %v", err)
	}
}

// TestReadOnlyDirectory: a file this process cannot write — in a directory
// it cannot write either (so SQLite can make no -shm file, nor apply a
// -wal or roll a journal back, beside it), or in one it can (where the
// -wal and -shm files it made would be left to the file's owner, who could
// not write them) — is read from a private copy, through a symbolic link
// too (with the -wal beside the file it points to); nothing is left behind
// in the directory, and the copy is removed.
func TestReadOnlyDirectory(t *testing.T) {
	if otheruser.InChild(t, readOnlyCheck) {
		return
	}
	tests := []struct {
		name    string
		prepare func(t *testing.T, path string)
		rows    int
		link    bool
		// writableDir leaves the directory writable: only the file is
		// not (its mode is 0644, its owner root).
		writableDir bool
	}{
		{name: "merged", rows: 10},
		{name: "writable directory, merged", rows: 10, writableDir: true},
		{name: "writable directory, committed rows in the -wal", prepare: func(t *testing.T, path string) { unmergedWAL(t, path, 11, 30) }, rows: 30, writableDir: true},
		{name: "committed rows in the -wal", prepare: func(t *testing.T, path string) { unmergedWAL(t, path, 11, 30) }, rows: 30},
		{name: "through a link, committed rows in the -wal", prepare: func(t *testing.T, path string) { unmergedWAL(t, path, 11, 30) }, rows: 30, link: true},
		{name: "a hot journal", prepare: hotJournal, rows: 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(otheruser.SharedDir(t), "store")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			path := walFile(t, dir, 10)
			if tc.prepare != nil {
				tc.prepare(t, path)
			}
			before := files(t, dir)
			open := path
			if tc.link {
				open = filepath.Join(filepath.Dir(dir), "link.db")
				if err := os.Symlink(path, open); err != nil {
					t.Fatal(err)
				}
			}
			mode := os.FileMode(0o555)
			if tc.writableDir {
				mode = 0o777
			}
			if err := os.Chmod(dir, mode); err != nil {
				t.Fatal(err)
			}
			tmp := otheruser.SharedDir(t) // where the copy goes
			env := []string{readOnlyFileEnv + "=" + open, readOnlyRowsEnv + "=" + strconv.Itoa(tc.rows), "TMPDIR=" + tmp}
			if err := otheruser.Do(t, env, readOnlyCheck); err != nil {
				t.Fatal(err)
			}
			if after := files(t, dir); !slices.Equal(after, before) {
				t.Errorf("the directory holds %q, held %q", after, before)
			}
			if left := files(t, tmp); len(left) > 0 {
				t.Errorf("the copy was not removed: %s holds %q", tmp, left)
			}
		})
	}
}
