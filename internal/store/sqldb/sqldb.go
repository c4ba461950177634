package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
	_ "modernc.org/sqlite"             // registers the "sqlite" database/sql driver

	"github.com/triage-eval/triage/internal/store/sqlitedsn"
)

// Dialect names a backend.
type Dialect string

// The backends.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// postgresConns bounds a process's connections to one PostgreSQL store
// (and keeps that many open while busy): enough for a worker's concurrent
// cells, few enough for a dozen workers on one server's default 100.
const postgresConns = 8

// Options are a store's choices for its SQLite database (PostgreSQL needs
// none).
type Options struct {
	// SQLite sets the pragmas of every connection.
	SQLite sqlitedsn.Options
	// OneConnection serializes the store's SQLite access through one
	// connection (the simplest way to keep one writer).
	OneConnection bool
	// Transient, for PostgreSQL, commits without waiting for the write-ahead
	// log to reach the disk (synchronous_commit=off): for rows that may be
	// lost when the server crashes, such as workers' leases. SQLite in WAL
	// mode with synchronous=NORMAL does not wait for the disk either.
	Transient bool
	// ReadOnly opens an existing database to read only, for a caller that
	// must write nothing, such as a report: a PostgreSQL session refuses
	// writes (default_transaction_read_only), and a SQLite file, never
	// created, is opened as OpenSQLiteReadOnly says, so that a store in a
	// directory this process cannot write (another user's, an archive)
	// still opens.
	ReadOnly bool
}

// DB is an open store database.
type DB struct {
	// Dialect is the backend.
	Dialect Dialect
	// Location is where it is, with any password masked (for messages).
	Location string
	db       *sql.DB
	// cleanup runs after db is closed: it removes the private copy a
	// ReadOnly SQLite file is read from, if any (OpenSQLiteReadOnly).
	cleanup func() error
}

// IsPostgres reports whether location names a PostgreSQL database.
func IsPostgres(location string) bool {
	return strings.HasPrefix(location, "postgres://") || strings.HasPrefix(location, "postgresql://")
}

// SQLitePrefix marks a location as a SQLite file: "sqlite:PATH".
const SQLitePrefix = "sqlite:"

// SQLitePath is the file of a SQLite location: PATH for sqlite:PATH or a
// file path.
func SQLitePath(location string) string { return strings.TrimPrefix(location, SQLitePrefix) }

// CheckLocation reports why location can name no store: it is empty, or a
// URL of a scheme other than PostgreSQL's. Every store reads a location
// through it, so all of them refuse one alike.
func CheckLocation(location string) error {
	switch {
	case location == "":
		return errors.New("empty location: want a SQLite file path, sqlite:PATH or a postgres:// URL")
	case !IsPostgres(location) && strings.Contains(location, "://"):
		return fmt.Errorf("location %q: unsupported scheme (want postgres://, postgresql://, sqlite:PATH or a file path)", Redact(location))
	}
	return nil
}

// Open opens the database at location: a postgres:// or postgresql:// URL,
// sqlite:PATH or a file path (created if missing).
func Open(ctx context.Context, location string, opts Options) (*DB, error) {
	var (
		db      *sql.DB
		err     error
		d       = SQLite
		cleanup = func() error { return nil }
	)
	if err := CheckLocation(location); err != nil {
		return nil, err
	}
	switch {
	case IsPostgres(location):
		d = Postgres
		db, err = sql.Open("pgx", PostgresDSN(location, opts))
		if err == nil {
			// Keep the connections: opening one costs milliseconds, more
			// than most statements of a store. Bounded, since every worker
			// of a grid opens several stores on one server.
			conns := postgresConns
			if opts.Transient {
				conns = 2
			}
			db.SetMaxOpenConns(conns)
			db.SetMaxIdleConns(conns)
			db.SetConnMaxIdleTime(time.Minute)
		}
	case opts.ReadOnly:
		db, cleanup, err = OpenSQLiteReadOnly(ctx, SQLitePath(location), opts.SQLite)
	default:
		db, err = sql.Open("sqlite", sqlitedsn.DSN(SQLitePath(location), opts.SQLite))
	}
	if err == nil && d == SQLite && opts.OneConnection {
		db.SetMaxOpenConns(1)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Redact(location), err)
	}
	if err := ping(ctx, db, d); err != nil {
		_ = db.Close() // the ping's error is the one to report
		_ = cleanup()  // likewise
		return nil, fmt.Errorf("%s: %w", Redact(location), err)
	}
	return &DB{Dialect: d, Location: Redact(location), db: db, cleanup: cleanup}, nil
}

// sqliteOpenWait bounds how long opening a SQLite file waits for other
// openers: as long as its busy timeout (sqlitedsn).
const sqliteOpenWait = 5 * time.Second

// ping checks that db answers. A SQLite connection's first statements
// (journal_mode=WAL) answer SQLITE_BUSY at once, without the busy
// handler, while another process or connection sets a new file up: on
// SQLite a busy answer is asked again, with a growing pause, for up to
// sqliteOpenWait, so workers that open one fresh run store together all
// open it.
func ping(ctx context.Context, db *sql.DB, d Dialect) error {
	err := db.PingContext(ctx)
	pause := time.Millisecond
	for deadline := time.Now().Add(sqliteOpenWait); d == SQLite && isBusy(err) && time.Now().Before(deadline); pause = min(2*pause, 100*time.Millisecond) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		err = db.PingContext(ctx)
	}
	return err
}

// postgresParams are the runtime parameters opts asks of a PostgreSQL
// session.
func postgresParams(opts Options) map[string]string {
	params := map[string]string{}
	if opts.Transient {
		params["synchronous_commit"] = "off"
	}
	if opts.ReadOnly {
		params["default_transaction_read_only"] = "on"
	}
	return params
}

// DefaultConnectTimeout bounds connecting to PostgreSQL — the dial and the
// server's startup answer — when a location gives no connect_timeout: a
// server that accepts connections and never answers held a command, and
// triage serve's start, forever, with no word.
const DefaultConnectTimeout = 10 * time.Second

// PostgresDSN is a PostgreSQL location as the stores connect to it: with
// opts' runtime parameters, and connect_timeout DefaultConnectTimeout
// unless the location gives its own.
func PostgresDSN(location string, opts Options) string {
	params := postgresParams(opts)
	if u, err := url.Parse(location); err == nil && !u.Query().Has("connect_timeout") {
		params["connect_timeout"] = strconv.Itoa(int(DefaultConnectTimeout / time.Second))
	}
	return withRuntimeParams(location, params)
}

// withRuntimeParams adds PostgreSQL runtime parameters to a URL's query.
func withRuntimeParams(location string, params map[string]string) string {
	if len(params) == 0 {
		return location
	}
	u, err := url.Parse(location)
	if err != nil {
		return location // Open reports the error
	}
	q := u.Query()
	for name, value := range params {
		q.Set(name, value)
	}
	// Encode writes a space as "+", which pgx reads as a plus sign (in
	// options=-c a=b, say); "%20" it reads as a space.
	u.RawQuery = strings.ReplaceAll(q.Encode(), "+", "%20")
	return u.String()
}

// New wraps db, a database of dialect d that a store opened itself, at
// location (its password masked here), for Migrate and the other methods.
// Closing the result closes db.
func New(db *sql.DB, d Dialect, location string) *DB {
	return &DB{Dialect: d, Location: Redact(location), db: db, cleanup: func() error { return nil }}
}

// Close closes the database.
func (db *DB) Close() error { return errors.Join(db.db.Close(), db.cleanup()) }

// ExecContext runs a statement written with ? placeholders.
func (db *DB) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return db.db.ExecContext(ctx, db.Dialect.Rebind(query), args...)
}

// QueryContext runs a query written with ? placeholders.
func (db *DB) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return db.db.QueryContext(ctx, db.Dialect.Rebind(query), args...)
}

// QueryRowContext runs a one-row query written with ? placeholders.
func (db *DB) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return db.db.QueryRowContext(ctx, db.Dialect.Rebind(query), args...)
}

// BeginTx starts a transaction.
func (db *DB) BeginTx(ctx context.Context) (*Tx, error) {
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	return &Tx{tx: tx, d: db.Dialect}, nil
}

// Tx is a transaction of a DB; its statements use ? placeholders too.
type Tx struct {
	tx *sql.Tx
	d  Dialect
}

// ExecContext runs a statement in the transaction.
func (t *Tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return t.tx.ExecContext(ctx, t.d.Rebind(query), args...)
}

// QueryContext runs a query in the transaction.
func (t *Tx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return t.tx.QueryContext(ctx, t.d.Rebind(query), args...)
}

// QueryRowContext runs a one-row query in the transaction.
func (t *Tx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return t.tx.QueryRowContext(ctx, t.d.Rebind(query), args...)
}

// Dialect is the backend of the transaction's database.
func (t *Tx) Dialect() Dialect { return t.d }

// Commit commits the transaction.
func (t *Tx) Commit() error { return t.tx.Commit() }

// Rollback aborts the transaction (a no-op after Commit).
func (t *Tx) Rollback() error { return t.tx.Rollback() }

// Rebind rewrites the ? placeholders of query for the dialect: $1, $2, …
// for PostgreSQL, unchanged for SQLite. A ? inside a single-quoted string
// literal is left alone.
func (d Dialect) Rebind(query string) string {
	if d != Postgres || !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	n, quoted := 0, false
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case c == '\'':
			quoted = !quoted
		case c == '?' && !quoted:
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// mask is what Redact writes in place of a password.
const mask = "xxxxx"

// passwordParams are the query parameters of a PostgreSQL URL that hold a
// password.
var passwordParams = []string{"password", "sslpassword"}

// Redact returns location with any password masked — the user's in the
// URL, or a password or sslpassword parameter — for messages and for
// whatever records a location where others read it (a run's manifest).
// Only a copy is masked: a store is opened at the location as given.
func Redact(location string) string {
	u, err := url.Parse(location)
	if err == nil {
		q := u.Query()
		masked := false
		for _, k := range passwordParams {
			if q.Has(k) {
				q.Set(k, mask)
				masked = true
			}
		}
		_, hasPassword := u.User.Password()
		if !masked && !hasPassword {
			return location
		}
		if masked {
			u.RawQuery = q.Encode()
		}
		return u.Redacted()
	}
	// Unparsable: hide whatever credentials sit between "://" and "@".
	scheme, rest, ok := strings.Cut(location, "://")
	if at := strings.LastIndex(rest, "@"); ok && at >= 0 {
		return scheme + "://" + mask + "@" + rest[at+1:]
	}
	return location
}

// IsRedacted reports whether location is one Redact masked a password of:
// it holds the mask in place of the password, so connecting with it would
// send the mask, not the password.
func IsRedacted(location string) bool {
	u, err := url.Parse(location)
	if err != nil {
		return false
	}
	// The password masked, or an unparsable location's credentials masked
	// whole (the mask as the user).
	if p, ok := u.User.Password(); ok && p == mask || !ok && u.User.Username() == mask {
		return true
	}
	q := u.Query()
	for _, k := range passwordParams {
		if q.Has(k) && q.Get(k) == mask {
			return true
		}
	}
	return false
}
