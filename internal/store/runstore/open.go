package runstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/triage-eval/triage/internal/store/sqldb"
	"github.com/triage-eval/triage/internal/store/sqlitedsn"
)

// sqlStore is the Store of both backends: embedded SQLite (a file path, the
// default) or PostgreSQL (a postgres:// URL), which several machines share
// (see ClaimKeys), through package sqldb, which lets them run the same SQL.
type sqlStore struct {
	db *sqldb.DB
	// claims holds the workers' leases: on PostgreSQL a second connection
	// pool that commits without waiting for the disk (a lease is worth
	// nothing after a server crash); on SQLite the same database.
	claims *sqldb.DB
	// outage is how operations ride out a store that stops answering
	// (outage.go).
	outage outageState
}

// Open opens (creating) the run store at location — a SQLite file
// path or a postgres:// URL — and brings its schema up to date. A store
// written by a newer version is refused. Its operations ride out an outage
// of DefaultOutage (see Outage, RideOutages); opening does not: a
// store that does not answer at the start is an error at once.
func Open(ctx context.Context, location string) (Store, error) {
	db, err := sqldb.Open(ctx, location, sqldb.Options{SQLite: sqlitedsn.Options{ImmediateTx: true}, OneConnection: true})
	if err != nil {
		return nil, fmt.Errorf("run store %w", err)
	}
	if err := db.Migrate(ctx, schema()); err != nil {
		_ = db.Close() // the migration's error is the one to report
		return nil, fmt.Errorf("run store %s: %w", db.Location, err)
	}
	s := &sqlStore{db: db, claims: db, outage: outageState{Outage: Outage{Wait: DefaultOutage}, now: time.Now, sleep: sleepCtx}}
	if db.Dialect == sqldb.Postgres {
		if s.claims, err = sqldb.Open(ctx, location, sqldb.Options{Transient: true}); err != nil {
			_ = db.Close() // the open's error is the one to report
			return nil, fmt.Errorf("run store %w", err)
		}
	}
	return s, nil
}

// Exists reports whether location holds a run store (its manifest table),
// without creating or migrating anything: for a caller that only reads, as
// a report, and must not make an empty store of a mistyped location. A
// location that cannot be reached is an error.
func Exists(ctx context.Context, location string) (bool, error) {
	if !sqldb.IsPostgres(location) {
		// Opening a SQLite file that is not there would create it.
		if _, err := os.Stat(sqldb.SQLitePath(location)); errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
	}
	db, err := sqldb.Open(ctx, location, sqldb.Options{OneConnection: true})
	if err != nil {
		return false, fmt.Errorf("run store %w", err)
	}
	defer func() { _ = db.Close() }() // only read
	ok, err := sqldb.TableExists(ctx, db, db.Dialect, "manifest")
	if err != nil {
		return false, fmt.Errorf("run store %s: %w", db.Location, err)
	}
	return ok, nil
}

// Close implements Store.
func (s *sqlStore) Close() error {
	var claimsErr error
	if s.claims != s.db {
		claimsErr = s.claims.Close()
	}
	return errors.Join(s.db.Close(), claimsErr)
}

// Location implements Store.
func (s *sqlStore) Location() string { return s.db.Location }
