package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"modernc.org/sqlite" // also registers the "sqlite" database/sql driver
	sqlite3 "modernc.org/sqlite/lib"
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
	r        *sql.DB // == w for ":memory:"
	// Statements for a full batch of sqliteBatchRows records, prepared on
	// the write connection (see sqliteBatch).
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
	s := &sqliteStore{location: "sqlite:" + path}
	defer func() {
		if err != nil {
			s.Close()
			err = fmt.Errorf("store: open %s: %w", s.location, err)
		}
	}()
	memory := path == ":memory:"
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
	if err = s.migrate(ctx); err != nil {
		return nil, err
	}
	if s.upsert, err = s.w.PrepareContext(ctx, sqliteUpsertSQL(sqliteBatchRows)); err != nil {
		return nil, fmt.Errorf("prepare upsert: %w", err)
	}
	if s.exists, err = s.w.PrepareContext(ctx, sqliteExistsSQL(sqliteBatchRows)); err != nil {
		return nil, fmt.Errorf("prepare existence check: %w", err)
	}
	if s.existsInGroup, err = s.w.PrepareContext(ctx, sqliteExistsInGroupSQL(sqliteBatchRows)); err != nil {
		return nil, fmt.Errorf("prepare existence check: %w", err)
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

// sqliteDSN returns the modernc.org/sqlite DSN of path. The pragmas apply to
// every connection the pool opens: WAL (readers do not block the writer nor
// the writer readers), synchronous=NORMAL (durable at checkpoints, safe in
// WAL), a 5 s busy timeout for other processes, foreign keys. Writers begin
// IMMEDIATE transactions so they take the write lock up front instead of
// failing to upgrade; readers are query-only.
func sqliteDSN(path string, write bool) string {
	q := url.Values{}
	q.Set("_busy_timeout", "5000")
	q.Set("_foreign_keys", "1")
	q.Set("_synchronous", "NORMAL")
	if path == ":memory:" {
		return ":memory:?" + q.Encode()
	}
	q.Set("_journal_mode", "WAL")
	if write {
		q.Set("_txlock", "immediate")
	} else {
		q.Set("_query_only", "1")
	}
	return "file:" + sqliteURIPath(path) + "?" + q.Encode()
}

// sqliteURIPath escapes the characters that would end or alter the path
// part of an SQLite "file:" URI.
func sqliteURIPath(path string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
}

// Close releases both pools.
func (s *sqliteStore) Close() error {
	var errs []error
	for _, st := range []*sql.Stmt{s.upsert, s.exists, s.existsInGroup} {
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
	return errors.Join(errs...)
}
