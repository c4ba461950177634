package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"

	"github.com/triage-eval/triage/internal/store/sqlitedsn"
)

// OpenSQLiteReadOnly opens the existing SQLite file at path to read only
// (sqlitedsn.Options.ReadOnly; a symbolic link is followed first, so that
// the files beside it are the real file's) and returns it with what must
// run after it is closed. It is read in place when this process may write
// it, or when its owner has it open (its -wal and -shm files exist):
// reading a file in WAL mode makes -wal and -shm files beside it, which a
// process that may not write the file cannot remove when it is done, and
// which its owner then could not write. Otherwise, or when SQLite cannot
// read it in place (the directory is not writable by this process, a
// crashed writer's journal cannot be rolled back), it is read from a
// private copy (copyToRead), which the returned cleanup removes. The first
// read is made here, since that is where such a failure shows. o's other
// settings apply as they do to a file opened to write.
func OpenSQLiteReadOnly(ctx context.Context, path string, o sqlitedsn.Options) (_ *sql.DB, cleanup func() error, _ error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, nil, err // a store to read is never created
	}
	o.ReadOnly = true
	noCleanup := func() error { return nil }
	if inPlace(real) {
		db, err := openAndRead(ctx, sqlitedsn.DSN(real, o))
		if err == nil || !isReadOnly(err) {
			return db, noCleanup, err
		}
	}
	dir, copied, err := copyToRead(real, copyFile)
	if err != nil {
		return nil, nil, fmt.Errorf("reading it from a copy in %s, as this process cannot read it in place: %w", os.TempDir(), err)
	}
	cleanup = dir.remove
	db, err := openAndRead(ctx, sqlitedsn.DSN(copied, o))
	if err != nil {
		return nil, nil, errors.Join(err, cleanup())
	}
	return db, cleanup, nil
}

// inPlace reports whether the file at path is read where it is: this
// process may write it, or its -wal and -shm files exist already.
func inPlace(path string) bool {
	if unix.Faccessat(unix.AT_FDCWD, path, unix.W_OK, unix.AT_EACCESS) == nil {
		return true
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Lstat(path + suffix); err != nil {
			return false
		}
	}
	return true
}

// openAndRead opens dsn and reads its schema once.
func openAndRead(ctx context.Context, dsn string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master`).Scan(&n); err != nil {
		return nil, errors.Join(err, db.Close())
	}
	return db, nil
}

// OlderSchema wraps err, the error of opening to write a store that a
// reader found written by an older triage (its schema is brought up to
// date when it is opened), with what the reader needs.
func OlderSchema(err error) error {
	return fmt.Errorf("%w (it was written by an older triage, and reading it needs its schema brought up to date once where it can be written)", err)
}
