package groundtruth

import (
	"embed"

	"github.com/triage-eval/triage/internal/store/sqldb"
)

// migrationFiles holds the versioned schema of every backend, one directory
// per dialect, each file named NNNN_description.sql.
//
//go:embed migrations
var migrationFiles embed.FS

// ledger is the table where a database records its schema versions.
const ledger = sqldb.VersionTable("schema_migrations")

// schema returns the store's schema, as package sqldb applies it.
func schema() sqldb.Schema {
	return sqldb.Schema{Files: migrationFiles, Dir: "migrations", Ledger: ledger, Lock: "triage/store/migrate:"}
}

// LatestSchemaVersion returns the newest schema version this binary applies
// for dialect ("sqlite" or "postgres").
func LatestSchemaVersion(dialect string) (int64, error) {
	return schema().Latest(sqldb.Dialect(dialect))
}
