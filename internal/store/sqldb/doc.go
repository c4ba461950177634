// Package sqldb opens the SQL stores that database/sql serves on both of
// the project's backends — embedded SQLite (a file path or sqlite:PATH, the
// zero-configuration default) and PostgreSQL (postgres:// or
// postgresql:// URLs, the shared store) — so that a store writes its SQL
// once: statements use ? placeholders, rewritten to $n for PostgreSQL, and
// the portable subset both dialects share (INSERT … ON CONFLICT … DO
// UPDATE/NOTHING, RETURNING).
package sqldb
