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
	s := newStore(db)
	if db.Dialect == sqldb.Postgres {
		if s.claims, err = sqldb.Open(ctx, location, sqldb.Options{Transient: true}); err != nil {
			_ = db.Close() // the open's error is the one to report
			return nil, fmt.Errorf("run store %w", err)
		}
	}
	return s, nil
}

// OpenToRead opens the run store at location for a caller that only
// reads, such as a report: nothing is created or written
// (sqldb.Options.ReadOnly), so a store in a directory this process cannot
// write opens too. A location that holds no run store is an error; a store
// of an older schema is brought up to date by Open, which needs to write
// it; a newer one is refused.
func OpenToRead(ctx context.Context, location string) (Store, error) {
	db, err := sqldb.Open(ctx, location, sqldb.Options{OneConnection: true, ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("run store %w", err)
	}
	upToDate, err := readable(ctx, db)
	switch {
	case err != nil:
		return nil, errors.Join(fmt.Errorf("run store %s: %w", db.Location, err), db.Close())
	case !upToDate:
		_ = db.Close() // only read; Open reports what matters
		rs, err := Open(ctx, location)
		if err != nil {
			return nil, sqldb.OlderSchema(err)
		}
		return rs, nil
	}
	return newStore(db), nil
}

// newStore is the Store over db, its leases in db too (Open gives a
// PostgreSQL store a pool of their own).
func newStore(db *sqldb.DB) *sqlStore {
	return &sqlStore{db: db, claims: db, outage: outageState{Outage: Outage{Wait: DefaultOutage}, now: time.Now, sleep: sleepCtx}}
}

// readable reports whether db holds a run store of this build's schema;
// false for an older one.
func readable(ctx context.Context, db *sqldb.DB) (bool, error) {
	ok, err := hasManifest(ctx, db)
	switch {
	case err != nil:
		return false, err
	case !ok:
		return false, errors.New("holds no run store (it has no manifest table: a ground-truth store or an LLM cache?)")
	}
	return db.UpToDate(ctx, schema())
}

// hasManifest reports whether db holds a run store: its manifest table.
func hasManifest(ctx context.Context, db *sqldb.DB) (bool, error) {
	return sqldb.TableExists(ctx, db, db.Dialect, "manifest")
}

// Exists reports whether location holds a run store (its manifest table),
// without creating or migrating anything: for a caller that only reads, as
// a report, and must not make an empty store of a mistyped location. A
// location that cannot be reached is an error.
func Exists(ctx context.Context, location string) (bool, error) {
	if !sqldb.IsPostgres(location) {
		// A file that is not there holds no run store.
		if _, err := os.Stat(sqldb.SQLitePath(location)); errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
	}
	db, err := sqldb.Open(ctx, location, sqldb.Options{OneConnection: true, ReadOnly: true})
	if err != nil {
		return false, fmt.Errorf("run store %w", err)
	}
	defer func() { _ = db.Close() }() // only read
	ok, err := hasManifest(ctx, db)
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
