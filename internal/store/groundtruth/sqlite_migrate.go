package groundtruth

import (
	"context"
	"fmt"
	"time"
)

// migrate applies the SQLite migrations the database lacks, all in one
// IMMEDIATE transaction, so concurrent openers apply each step once. A
// database that is up to date is only read: the version is checked first
// without a transaction, so opening a store (to list it, say) never waits
// for the write lock an import holds.
func (s *sqliteStore) migrate(ctx context.Context) error {
	ms, err := loadMigrations("sqlite")
	if err != nil {
		return err
	}
	current, err := s.schemaVersion(ctx)
	if err != nil {
		return err
	}
	if pending, err := pendingMigrations(ms, current, s.location); err != nil || len(pending) == 0 {
		return err
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: begin: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		applied_at INTEGER NOT NULL -- unix microseconds UTC
	) STRICT`); err != nil {
		return fmt.Errorf("migrate: create schema_migrations: %w", err)
	}
	// Read again under the lock: another opener may have migrated meanwhile.
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&current); err != nil {
		return fmt.Errorf("migrate: read schema version: %w", err)
	}
	pending, err := pendingMigrations(ms, current, s.location)
	if err != nil {
		return err
	}
	for _, m := range pending {
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return fmt.Errorf("migrate: apply %s: %w", m.name, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`,
			m.version, time.Now().UnixMicro()); err != nil {
			return fmt.Errorf("migrate: record %s: %w", m.name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate: commit: %w", err)
	}
	return nil
}

// schemaVersion reads the applied schema version outside any transaction
// (in WAL mode a read takes no lock a writer holds): 0 for a database
// without the schema_migrations table.
func (s *sqliteStore) schemaVersion(ctx context.Context) (int64, error) {
	var tables int
	if err := s.w.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'`).Scan(&tables); err != nil {
		return 0, fmt.Errorf("migrate: look for schema_migrations: %w", err)
	}
	if tables == 0 {
		return 0, nil
	}
	var current int64
	if err := s.w.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&current); err != nil {
		return 0, fmt.Errorf("migrate: read schema version: %w", err)
	}
	return current, nil
}

// AppliedMigrations lists the schema migrations the database has applied.
func (s *sqliteStore) AppliedMigrations(ctx context.Context) ([]AppliedMigration, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT version, applied_at FROM schema_migrations ORDER BY version`)
	if err != nil {
		return nil, fmt.Errorf("store: %s: list migrations: %w", s.location, err)
	}
	defer rows.Close()
	var out []AppliedMigration
	for rows.Next() {
		var m AppliedMigration
		var at int64
		if err := rows.Scan(&m.Version, &at); err != nil {
			return nil, fmt.Errorf("store: %s: list migrations: %w", s.location, err)
		}
		m.AppliedAt = fromUnixMicro(at)
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %s: list migrations: %w", s.location, err)
	}
	return out, nil
}
