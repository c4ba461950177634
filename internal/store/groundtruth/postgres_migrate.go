package groundtruth

import (
	"context"
	"fmt"
)

// migrate applies the PostgreSQL migrations the database lacks, in one
// transaction. A transaction-scoped advisory lock keyed by the current schema
// makes concurrent openers of the same schema take turns, so each step is
// applied once.
func (s *pgStore) migrate(ctx context.Context) error {
	ms, err := loadMigrations("postgres")
	if err != nil {
		return err
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("migrate: begin: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('triage/store/migrate:' || coalesce(current_schema(), '')))`); err != nil {
		return fmt.Errorf("migrate: lock: %w", err)
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    bigint      PRIMARY KEY,
		applied_at timestamptz NOT NULL
	)`); err != nil {
		return fmt.Errorf("migrate: create schema_migrations: %w", err)
	}
	var current int64
	if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&current); err != nil {
		return fmt.Errorf("migrate: read schema version: %w", err)
	}
	pending, err := pendingMigrations(ms, current, s.location)
	if err != nil {
		return err
	}
	for _, m := range pending {
		if _, err := tx.Exec(ctx, m.sql); err != nil {
			return fmt.Errorf("migrate: apply %s: %w", m.name, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES ($1, clock_timestamp())`, m.version); err != nil {
			return fmt.Errorf("migrate: record %s: %w", m.name, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("migrate: commit: %w", err)
	}
	return nil
}

// AppliedMigrations lists the schema migrations the database has applied.
func (s *pgStore) AppliedMigrations(ctx context.Context) ([]AppliedMigration, error) {
	rows, err := s.pool.Query(ctx, `SELECT version, applied_at FROM schema_migrations ORDER BY version`)
	if err != nil {
		return nil, fmt.Errorf("store: %s: list migrations: %w", s.location, err)
	}
	defer rows.Close()
	var out []AppliedMigration
	for rows.Next() {
		var m AppliedMigration
		if err := rows.Scan(&m.Version, &m.AppliedAt); err != nil {
			return nil, fmt.Errorf("store: %s: list migrations: %w", s.location, err)
		}
		m.AppliedAt = m.AppliedAt.UTC()
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %s: list migrations: %w", s.location, err)
	}
	return out, nil
}
