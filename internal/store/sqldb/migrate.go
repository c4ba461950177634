package sqldb

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Schema is a store's versioned schema: the embedded SQL files that build
// it step by step, and where a database records how far it has come.
type Schema struct {
	// Files holds, in directory Dir, a directory per dialect ("sqlite",
	// "postgres") of files NNNN_description.sql, versions 1, 2, … without gaps, so the
	// version a database has says exactly which steps it has. A file of
	// comments alone is a version with nothing to do on that dialect.
	Files fs.FS
	Dir   string
	// Ledger is where a database records its version.
	Ledger Ledger
	// Lock names the PostgreSQL advisory lock (the current schema is
	// appended) under which concurrent openers take turns to migrate.
	Lock string
}

// Migration is one versioned step of a Schema.
type Migration struct {
	// Version is the step's version, from 1 up.
	Version int64
	// Name is the file's name, e.g. "0002_lucky_guess.sql".
	Name string
	// SQL is the file's statements.
	SQL string
}

// Migrations returns the steps of the schema for dialect d in version
// order.
func (s Schema) Migrations(d Dialect) ([]Migration, error) {
	dir := path.Join(s.Dir, string(d))
	entries, err := fs.ReadDir(s.Files, dir)
	if err != nil {
		return nil, fmt.Errorf("migrations for %s: %w", d, err)
	}
	var ms []Migration
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		prefix, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.ParseInt(prefix, 10, 64)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s/%s: name must start with a positive version and '_'", dir, e.Name())
		}
		body, err := fs.ReadFile(s.Files, path.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("migration %s/%s: %w", dir, e.Name(), err)
		}
		ms = append(ms, Migration{Version: v, Name: e.Name(), SQL: string(body)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Version < ms[j].Version })
	for i, m := range ms {
		if m.Version != int64(i+1) {
			return nil, fmt.Errorf("migrations for %s: expected version %d, found %s", d, i+1, m.Name)
		}
	}
	return ms, nil
}

// Latest returns the newest version of the schema for dialect d.
func (s Schema) Latest(d Dialect) (int64, error) {
	ms, err := s.Migrations(d)
	return int64(len(ms)), err
}

// UpToDate reports whether the database has every step of s, reading
// only; a database newer than s is an error, as in Migrate.
func (db *DB) UpToDate(ctx context.Context, s Schema) (bool, error) {
	ms, err := s.Migrations(db.Dialect)
	if err != nil {
		return false, err
	}
	current, err := s.Ledger.Version(ctx, db, db.Dialect)
	if err != nil {
		return false, fmt.Errorf("read schema version: %w", err)
	}
	pending, err := pendingMigrations(ms, current)
	return len(pending) == 0, err
}

// Migrate applies the steps of s that the database lacks, all in one
// transaction, and refuses a database whose version is newer than s. A
// database that is up to date is only read (no transaction, no lock), so
// opening one never waits for a writer. Otherwise concurrent openers take
// turns and each step is applied once: on PostgreSQL under s.Lock; on
// SQLite because the transaction takes the write lock at its start, so a
// SQLite database must be opened with sqlitedsn.Options.ImmediateTx.
func (db *DB) Migrate(ctx context.Context, s Schema) error {
	ms, err := s.Migrations(db.Dialect)
	if err != nil {
		return err
	}
	// A read that fails is done again below, in the transaction: SQLite
	// answers SQLITE_BUSY at once, without waiting, while another opener
	// sets a fresh file up.
	if current, err := s.Ledger.Version(ctx, db, db.Dialect); err == nil {
		if pending, err := pendingMigrations(ms, current); err != nil || len(pending) == 0 {
			return err
		}
	}
	tx, err := db.BeginTx(ctx)
	if err != nil {
		return fmt.Errorf("migrate: begin: %w", err)
	}
	defer tx.Rollback()
	if db.Dialect == Postgres {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext(? || coalesce(current_schema(), '')))`, s.Lock); err != nil {
			return fmt.Errorf("migrate: lock: %w", err)
		}
	}
	// Read again under the lock: another opener may have migrated meanwhile.
	current, err := s.Ledger.Version(ctx, tx, db.Dialect)
	if err != nil {
		return fmt.Errorf("migrate: read schema version: %w", err)
	}
	pending, err := pendingMigrations(ms, current)
	if err != nil {
		return err
	}
	for _, m := range pending {
		if hasStatements(m.SQL) {
			if _, err := tx.tx.ExecContext(ctx, m.SQL); err != nil { // as written: no placeholders
				return fmt.Errorf("migrate: apply %s: %w", m.Name, err)
			}
		}
		if err := s.Ledger.Record(ctx, tx, m.Version); err != nil {
			return fmt.Errorf("migrate: record %s: %w", m.Name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate: commit: %w", err)
	}
	return nil
}

// pendingMigrations returns the steps of ms after version current, or an
// error if the database is newer than ms.
func pendingMigrations(ms []Migration, current int64) ([]Migration, error) {
	latest := int64(len(ms))
	if current > latest {
		return nil, fmt.Errorf("schema version %d is newer than this triage knows (%d): use a newer triage", current, latest)
	}
	return ms[current:], nil
}

// hasStatements reports whether sql holds more than "--" comments and
// blanks.
func hasStatements(sql string) bool {
	for _, line := range strings.Split(sql, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "--") {
			return true
		}
	}
	return false
}
