package groundtruth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"modernc.org/sqlite" // also registers the "sqlite" database/sql driver
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/triage-eval/triage/internal/store/sqldb"
	"github.com/triage-eval/triage/internal/store/sqlitedsn"
)

// sqliteReaders is the size of the read pool: in WAL mode readers proceed
// while the single writer imports.
const sqliteReaders = 4

// sqliteStore is the embedded SQLite backend. Writes (imports, migrations)
// go through w, a pool of exactly one connection, so imports serialize in
// the process; reads go through r, a pool of query-only connections. Every
// connection gets the pragmas from the DSN when the driver opens it.
type sqliteStore struct {
	location string
	w        *sql.DB
	r        *sql.DB // == w for ":memory:" and a store opened to read
	// cleanup, when set, runs after the pools are closed (the private
	// copy a store opened to read may be read from).
	cleanup func() error
	// Statements for a full batch of sqliteBatchRows records, prepared on
	// the write connection (see sqliteBatch), per table.
	gt, samples sqliteStmts
}

// sqliteStmts are the prepared statements of one table's full batches;
// existsInGroup is nil for the samples table.
type sqliteStmts struct {
	upsert, exists, existsInGroup *sql.Stmt
}

// sqliteOpenPatience is how long openSQLite keeps retrying an open that
// SQLite answers with SQLITE_BUSY; the same as the busy timeout.
const sqliteOpenPatience = 5 * time.Second

// openSQLite opens (creating if missing) the SQLite database at path and
// migrates it. SQLite returns SQLITE_BUSY without consulting the busy
// handler in a few opening steps — switching a new file to WAL, or while
// another connection recovers the WAL — so when several processes or
// goroutines open one file at once, the open is retried with backoff for up
// to sqliteOpenPatience.
func openSQLite(ctx context.Context, path string) (Store, error) {
	deadline := time.Now().Add(sqliteOpenPatience)
	wait := 5 * time.Millisecond
	for {
		s, err := openSQLiteOnce(ctx, path)
		if err == nil || !isSQLiteBusy(err) || time.Now().Add(wait).After(deadline) {
			return s, err
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, fmt.Errorf("store: open sqlite:%s: %w", path, ctx.Err())
		case <-timer.C:
		}
		wait = min(2*wait, 200*time.Millisecond)
	}
}

// isSQLiteBusy reports whether err is SQLITE_BUSY (or an extended BUSY code).
func isSQLiteBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY
}

// openSQLiteOnce makes one attempt at opening and migrating the database.
func openSQLiteOnce(ctx context.Context, path string) (_ Store, err error) {
	if path == "" {
		return nil, errors.New("store: sqlite: empty database path")
	}
	s := &sqliteStore{location: sqldb.SQLitePrefix + path}
	defer func() {
		if err != nil {
			_ = s.Close() // the open's error is the one to report
			err = fmt.Errorf("store: open %s: %w", s.location, err)
		}
	}()
	memory := path == sqlitedsn.Memory
	if s.w, err = sql.Open("sqlite", sqliteDSN(path, true)); err != nil {
		return nil, err
	}
	s.w.SetMaxOpenConns(1)
	s.w.SetMaxIdleConns(1)
	s.w.SetConnMaxLifetime(0) // an in-memory database lives as long as its connection
	s.w.SetConnMaxIdleTime(0)
	if err = s.w.PingContext(ctx); err != nil {
		return nil, err
	}
	if err = sqldb.New(s.w, sqldb.SQLite, s.location).Migrate(ctx, schema()); err != nil {
		return nil, err
	}
	if err = s.prepare(ctx); err != nil {
		return nil, err
	}
	if memory {
		s.r = s.w
		return s, nil
	}
	if s.r, err = sql.Open("sqlite", sqliteDSN(path, false)); err != nil {
		return nil, err
	}
	s.r.SetMaxOpenConns(sqliteReaders)
	s.r.SetMaxIdleConns(sqliteReaders)
	if err = s.r.PingContext(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// openSQLiteToRead opens the existing SQLite file at path to read only
// (sqldb.OpenSQLiteReadOnly): one pool reads, and imports fail. A file of
// an older schema is opened by openSQLite, which brings it up to date.
func openSQLiteToRead(ctx context.Context, path string) (_ Store, err error) {
	s := &sqliteStore{location: sqldb.SQLitePrefix + path}
	defer func() {
		if err != nil {
			_ = s.Close() // the open's error is the one to report
			err = fmt.Errorf("store: open %s: %w", s.location, err)
		}
	}()
	if s.w, s.cleanup, err = sqldb.OpenSQLiteReadOnly(ctx, path, sqlitedsn.Options{ForeignKeys: true}); err != nil {
		return nil, err
	}
	s.r = s.w
	s.w.SetMaxOpenConns(sqliteReaders)
	s.w.SetMaxIdleConns(sqliteReaders)
	upToDate, err := sqldb.New(s.w, sqldb.SQLite, s.location).UpToDate(ctx, schema())
	switch {
	case err != nil:
		return nil, err
	case !upToDate:
		if err := s.Close(); err != nil {
			return nil, err
		}
		st, err := openSQLite(ctx, path)
		if err != nil {
			return nil, sqldb.OlderSchema(err)
		}
		return st, nil
	}
	if err = s.prepare(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// prepare prepares the statements of full batches on the write pool.
func (s *sqliteStore) prepare(ctx context.Context) (err error) {
	for _, st := range []struct {
		t     table
		stmts *sqliteStmts
	}{{groundTruthTable, &s.gt}, {samplesTable, &s.samples}} {
		if st.stmts.upsert, err = s.w.PrepareContext(ctx, sqliteUpsertSQL(st.t, sqliteBatchRows)); err != nil {
			return fmt.Errorf("prepare upsert into %s: %w", st.t.name, err)
		}
		if st.stmts.exists, err = s.w.PrepareContext(ctx, sqliteExistsSQL(st.t, sqliteBatchRows)); err != nil {
			return fmt.Errorf("prepare existence check of %s: %w", st.t.name, err)
		}
	}
	if s.gt.existsInGroup, err = s.w.PrepareContext(ctx, sqliteExistsInGroupSQL(sqliteBatchRows)); err != nil {
		return fmt.Errorf("prepare existence check: %w", err)
	}
	return nil
}

// sqliteDSN returns the DSN of the write pool (IMMEDIATE transactions, so
// writers take the lock up front) or of the query-only read pool.
func sqliteDSN(path string, write bool) string {
	return sqlitedsn.DSN(path, sqlitedsn.Options{ForeignKeys: true, ImmediateTx: write, QueryOnly: !write})
}

// Close releases both pools.
func (s *sqliteStore) Close() error {
	var errs []error
	for _, st := range []*sql.Stmt{s.gt.upsert, s.gt.exists, s.gt.existsInGroup, s.samples.upsert, s.samples.exists} {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	if s.r != nil && s.r != s.w {
		errs = append(errs, s.r.Close())
	}
	if s.w != nil {
		errs = append(errs, s.w.Close())
	}
	if s.cleanup != nil {
		errs = append(errs, s.cleanup())
	}
	return errors.Join(errs...)
}
