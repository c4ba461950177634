package groundtruth

import (
	"context"
	"fmt"

	"github.com/triage-eval/triage/internal/store/sqldb"
)

// AppliedMigration is one schema migration recorded in a database.
type AppliedMigration = sqldb.AppliedMigration

// MigrationLister is implemented by every Store that Open returns; tests and
// operators use it to see which schema a database has.
type MigrationLister interface {
	// AppliedMigrations lists the applied migrations in version order.
	AppliedMigrations(ctx context.Context) ([]AppliedMigration, error)
}

// AppliedMigrations lists the schema migrations the database has applied.
func (s *pgStore) AppliedMigrations(ctx context.Context) ([]AppliedMigration, error) {
	ms, err := ledger.Applied(ctx, s.db)
	if err != nil {
		return nil, fmt.Errorf("store: %s: list migrations: %w", s.location, err)
	}
	return ms, nil
}

// AppliedMigrations lists the schema migrations the database has applied.
func (s *sqliteStore) AppliedMigrations(ctx context.Context) ([]AppliedMigration, error) {
	ms, err := ledger.Applied(ctx, sqldb.New(s.r, sqldb.SQLite, s.location))
	if err != nil {
		return nil, fmt.Errorf("store: %s: list migrations: %w", s.location, err)
	}
	return ms, nil
}
