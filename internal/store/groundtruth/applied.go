package groundtruth

import (
	"context"
	"time"
)

// AppliedMigration is one schema migration recorded in a database.
type AppliedMigration struct {
	// Version is the migration's version, from 1 up.
	Version int64
	// AppliedAt is when the migration was applied (UTC).
	AppliedAt time.Time
}

// MigrationLister is implemented by every Store that Open returns; tests and
// operators use it to see which schema a database has.
type MigrationLister interface {
	// AppliedMigrations lists the applied migrations in version order.
	AppliedMigrations(ctx context.Context) ([]AppliedMigration, error)
}
