package groundtruth

import (
	"context"
	"fmt"

	"github.com/triage-eval/triage/internal/store/sqldb"
	"github.com/triage-eval/triage/internal/store/sqlitedsn"
)

// Open opens the store at location, creating and migrating its schema when
// needed:
//
//   - "postgres://…" or "postgresql://…": PostgreSQL; the URL may carry pgx
//     settings and runtime parameters, e.g. "?search_path=triage".
//   - "sqlite:PATH" or a bare PATH: an embedded SQLite file, created if
//     missing (its directory must exist). PATH ":memory:" is a private
//     in-memory database, for tests: it uses a single connection, so readers
//     wait while an import runs.
//
// Open applies the embedded schema migrations the database lacks in one
// transaction and refuses a database whose schema is newer than this binary.
// A SQLite database that is up to date is only read, so opening one (to list
// it, say) never waits for the write lock an import holds.
func Open(ctx context.Context, location string) (Store, error) {
	return open(ctx, location, openSQLite)
}

// OpenToRead opens the store at location for a caller that only reads,
// such as a report: a SQLite file is never created, migrated or written
// (imports into it fail), and one in a directory this process cannot write
// is read from a private copy (sqldb.OpenSQLiteReadOnly); one written by
// an older triage is opened by Open, which brings it up to date. Other
// locations (PostgreSQL, ":memory:") are opened by Open.
func OpenToRead(ctx context.Context, location string) (Store, error) {
	return open(ctx, location, func(ctx context.Context, path string) (Store, error) {
		if path == sqlitedsn.Memory {
			return openSQLite(ctx, path)
		}
		return openSQLiteToRead(ctx, path)
	})
}

// open opens location, a SQLite one with openFile.
func open(ctx context.Context, location string, openFile func(context.Context, string) (Store, error)) (Store, error) {
	if err := sqldb.CheckLocation(location); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if sqldb.IsPostgres(location) {
		return openPostgres(ctx, location)
	}
	return openFile(ctx, sqldb.SQLitePath(location))
}
