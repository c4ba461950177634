package runstore

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"

	"github.com/triage-eval/triage/internal/store/sqldb"
)

// migrationFiles holds the run store's versioned schema, one directory per
// dialect (see sqldb.Schema). PostgreSQL stores start at the schema SQLite
// reaches at version 2, so their version 2 has nothing to do.
//
//go:embed migrations
var migrationFiles embed.FS

// schema returns the run store's schema, as package sqldb applies it.
func schema() sqldb.Schema {
	return sqldb.Schema{Files: migrationFiles, Dir: "migrations", Ledger: versionLedger{}, Lock: "triage/runstore/migrate:"}
}

// versionLedger is where a run store has kept its schema version since
// versions began, and keeps it so that the stores of every release open
// and older releases still read it: SQLite's user_version (0 also for the
// stores of the first releases, whose tables exist: version 1 creates them
// IF NOT EXISTS), PostgreSQL's one-row table run_schema.
type versionLedger struct{}

// Version implements sqldb.Ledger.
func (versionLedger) Version(ctx context.Context, q sqldb.Querier, d sqldb.Dialect) (int64, error) {
	var v int64
	if d == sqldb.SQLite {
		err := q.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v)
		return v, err
	}
	if ok, err := sqldb.TableExists(ctx, q, d, "run_schema"); err != nil || !ok {
		return 0, err
	}
	err := q.QueryRowContext(ctx, `SELECT version FROM run_schema`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return v, err
}

// Record implements sqldb.Ledger.
func (versionLedger) Record(ctx context.Context, tx *sqldb.Tx, version int64) error {
	stmts := []string{fmt.Sprintf(`PRAGMA user_version = %d`, version)}
	if tx.Dialect() == sqldb.Postgres {
		stmts = []string{
			`CREATE TABLE IF NOT EXISTS run_schema (version integer NOT NULL)`,
			`DELETE FROM run_schema`,
			fmt.Sprintf(`INSERT INTO run_schema (version) VALUES (%d)`, version),
		}
	}
	for _, stmt := range stmts {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return err
		}
	}
	return nil
}
