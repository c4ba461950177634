// Package sqldb opens the SQL stores that database/sql serves on both of
// the project's backends — embedded SQLite (a file path or sqlite:PATH, the
// zero-configuration default) and PostgreSQL (postgres:// or
// postgresql:// URLs, the shared store) — so that a store writes its SQL
// once: statements use ? placeholders, rewritten to $n for PostgreSQL, and
// the portable subset both dialects share (INSERT … ON CONFLICT … DO
// UPDATE/NOTHING, RETURNING).
//
// It also brings every store's schema up to date the same way (Migrate):
// versioned SQL files embedded in the store's package, one directory per
// dialect, applied in one transaction by whichever opener comes first and
// recorded in the store's Ledger. The ground-truth store, the run store and
// the LLM cache all use it; the run store keeps its version where its
// releases always have (SQLite's user_version, PostgreSQL's run_schema),
// the others in a VersionTable.
//
// A caller that must write nothing, such as a report, opens a store
// ReadOnly: never created or migrated (UpToDate says whether it needs to
// be), and a SQLite file in a directory it cannot write is read from a
// private copy (OpenSQLiteReadOnly).
package sqldb
