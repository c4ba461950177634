package sqldb

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Querier runs one-row queries written with ? placeholders: a *DB or a
// *Tx.
type Querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Ledger is where a database records the version of its schema (see
// Schema).
type Ledger interface {
	// Version returns the newest version applied: 0 for a database the
	// ledger is not in yet.
	Version(ctx context.Context, q Querier, d Dialect) (int64, error)
	// Record records, in tx, that version was applied, creating the ledger
	// if needed.
	Record(ctx context.Context, tx *Tx, version int64) error
}

// VersionTable is the Ledger of a table of that name with a row per version
// applied and when: version and applied_at (SQLite: INTEGER unix
// microseconds UTC, a STRICT table; PostgreSQL: timestamptz).
type VersionTable string

// Version implements Ledger.
func (t VersionTable) Version(ctx context.Context, q Querier, d Dialect) (int64, error) {
	if ok, err := TableExists(ctx, q, d, string(t)); err != nil || !ok {
		return 0, err
	}
	var v int64
	err := q.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM `+string(t)).Scan(&v)
	return v, err
}

// Record implements Ledger.
func (t VersionTable) Record(ctx context.Context, tx *Tx, version int64) error {
	create := `CREATE TABLE IF NOT EXISTS %s (
		version    INTEGER PRIMARY KEY,
		applied_at INTEGER NOT NULL -- unix microseconds UTC
	) STRICT`
	insert := `INSERT INTO %s (version, applied_at) VALUES (?, ?)`
	args := []any{version, time.Now().UnixMicro()}
	if tx.d == Postgres {
		create = `CREATE TABLE IF NOT EXISTS %s (
		version    bigint      PRIMARY KEY,
		applied_at timestamptz NOT NULL
	)`
		insert = `INSERT INTO %s (version, applied_at) VALUES (?, clock_timestamp())`
		args = args[:1]
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(create, t)); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, fmt.Sprintf(insert, t), args...)
	return err
}

// AppliedMigration is one version a VersionTable records.
type AppliedMigration struct {
	// Version is the migration's version, from 1 up.
	Version int64
	// AppliedAt is when the migration was applied (UTC).
	AppliedAt time.Time
}

// Applied lists the versions the table records, in version order.
func (t VersionTable) Applied(ctx context.Context, db *DB) ([]AppliedMigration, error) {
	rows, err := db.QueryContext(ctx, `SELECT version, applied_at FROM `+string(t)+` ORDER BY version`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []AppliedMigration
	for rows.Next() {
		var m AppliedMigration
		if db.Dialect == Postgres {
			err = rows.Scan(&m.Version, &m.AppliedAt)
		} else {
			var us int64
			err = rows.Scan(&m.Version, &us)
			m.AppliedAt = time.UnixMicro(us)
		}
		if err != nil {
			return nil, err
		}
		m.AppliedAt = m.AppliedAt.UTC()
		out = append(out, m)
	}
	return out, rows.Err()
}

// TableExists reports whether the database has a table name (on
// PostgreSQL, in the current schema, where CREATE TABLE puts it). It reads
// the catalog as a query does, so a transaction that waited for another's
// commit sees the tables that one created (to_regclass, answered from a
// cache, may not).
func TableExists(ctx context.Context, q Querier, d Dialect, name string) (bool, error) {
	query := `SELECT count(*) > 0 FROM sqlite_schema WHERE type = 'table' AND name = ?`
	if d == Postgres {
		query = `SELECT count(*) > 0 FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = ?`
	}
	var ok bool
	err := q.QueryRowContext(ctx, query, name).Scan(&ok)
	return ok, err
}
