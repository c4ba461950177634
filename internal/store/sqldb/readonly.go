package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/triage-eval/triage/internal/store/sqlitedsn"
)

// OpenSQLiteReadOnly opens the existing SQLite file at path to read only
// (sqlitedsn.Options.ReadOnly). A file in WAL mode needs its -shm file to
// be read; when that cannot be made — the directory is not writable by
// this process — the file is opened immutable instead, which needs no
// -shm, unless a -wal file beside it holds writes not yet merged into it:
// an immutable open would not see them, so that is an error saying what
// to do. The first read is made here, since that is where a missing -shm
// shows. o's other settings apply as they do to a file opened to write.
func OpenSQLiteReadOnly(ctx context.Context, path string, o sqlitedsn.Options) (*sql.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err // a store to read is never created
	}
	o.ReadOnly = true
	db, err := openAndRead(ctx, sqlitedsn.DSN(path, o))
	if err == nil || !IsReadOnly(err) { // the -shm file could be made and written
		return db, err
	}
	if fi, statErr := os.Stat(path + "-wal"); statErr == nil && fi.Size() > 0 {
		return nil, fmt.Errorf("its directory cannot be written here and %s-wal holds writes not yet merged into it: copy the file with its -wal file to a directory you can write, and open the copy", path)
	}
	o.Immutable = true
	return openAndRead(ctx, sqlitedsn.DSN(path, o))
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

// IsReadOnly reports whether err is SQLite's answer to opening or writing
// a file this process may only read: SQLITE_READONLY (of which
// SQLITE_READONLY_DIRECTORY, a WAL file in a directory it cannot write) or
// SQLITE_CANTOPEN.
func IsReadOnly(err error) bool {
	var lite *sqlite.Error
	if !errors.As(err, &lite) {
		return false
	}
	code := lite.Code() & 0xff // the primary code of an extended one
	return code == sqlite3.SQLITE_READONLY || code == sqlite3.SQLITE_CANTOPEN
}
