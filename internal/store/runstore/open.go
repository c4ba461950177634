package runstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/triage-eval/triage/internal/store/sqldb"
	"github.com/triage-eval/triage/internal/store/sqlitedsn"
)

// sqlStore is the Store of both backends: embedded SQLite (a file path, the
// default) or PostgreSQL (a postgres:// URL), which several machines share
// (see Claim), through package sqldb, which lets them run the same SQL.
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
	if err := migrateRunStore(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("run store %s: %w", db.Location, err)
	}
	s := &sqlStore{db: db, claims: db, outage: outageState{Outage: Outage{Wait: DefaultOutage}, now: time.Now, sleep: sleepCtx}}
	if db.Dialect == sqldb.Postgres {
		if s.claims, err = sqldb.Open(ctx, location, sqldb.Options{Transient: true}); err != nil {
			db.Close()
			return nil, fmt.Errorf("run store %w", err)
		}
	}
	return s, nil
}

// Close implements Store.
func (s *sqlStore) Close() error {
	if s.claims != s.db {
		s.claims.Close()
	}
	return s.db.Close()
}

// Location implements Store.
func (s *sqlStore) Location() string { return s.db.Location }

// migrateRunStore creates or upgrades the schema in one transaction.
// SQLite keeps the version in user_version (0 also for the stores of the
// first releases, created before versions: their tables exist); PostgreSQL
// in the table run_schema, behind an advisory lock so that workers opening
// a fresh store together create it once.
func migrateRunStore(ctx context.Context, db *sqldb.DB) error {
	tx, err := db.BeginTx(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	version, err := schemaVersion(ctx, tx, db.Dialect)
	if err != nil {
		return err
	}
	steps := runMigrations[db.Dialect]
	if version > len(steps) {
		return fmt.Errorf("schema version %d is newer than this triage understands (%d): use a newer triage", version, len(steps))
	}
	for ; version < len(steps); version++ {
		if _, err := tx.ExecContext(ctx, steps[version]); err != nil {
			return fmt.Errorf("migrate to schema version %d: %w", version+1, err)
		}
	}
	if err := setSchemaVersion(ctx, tx, db.Dialect, version); err != nil {
		return err
	}
	return tx.Commit()
}

// schemaVersion reads the store's schema version (0 for an empty store).
func schemaVersion(ctx context.Context, tx *sqldb.Tx, d sqldb.Dialect) (int, error) {
	var version int
	if d == sqldb.SQLite {
		err := tx.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version)
		return version, err
	}
	for _, stmt := range []string{
		`SELECT pg_advisory_xact_lock(hashtext('triage/runstore/migrate:' || coalesce(current_schema(), '')))`,
		`CREATE TABLE IF NOT EXISTS run_schema (version integer NOT NULL)`,
	} {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return 0, err
		}
	}
	err := tx.QueryRowContext(ctx, `SELECT version FROM run_schema`).Scan(&version)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return version, err
}

// setSchemaVersion records the store's schema version.
func setSchemaVersion(ctx context.Context, tx *sqldb.Tx, d sqldb.Dialect, version int) error {
	if d == sqldb.SQLite {
		_, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, version))
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM run_schema`); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO run_schema (version) VALUES (?)`, version)
	return err
}
