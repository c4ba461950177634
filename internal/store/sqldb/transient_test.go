package sqldb

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/triage-eval/triage/internal/store/pgtest"
)

func TestTransient(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"EOF", io.EOF, true},
		{"wrapped unexpected EOF", fmt.Errorf("save: %w", io.ErrUnexpectedEOF), true},
		{"bad connection", driver.ErrBadConn, true},
		{"connection refused", &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}, true},
		{"connection reset", fmt.Errorf("read: %w", syscall.ECONNRESET), true},
		{"pgx conn closed", pgconn.ErrConnClosed, true},
		{"connection failure", &pgconn.PgError{Code: "08006"}, true},
		{"admin shutdown", &pgconn.PgError{Code: "57P01"}, true},
		{"starting up", &pgconn.PgError{Code: "57P03"}, true},
		{"too many connections", &pgconn.PgError{Code: "53300"}, true},
		{"unique violation", &pgconn.PgError{Code: "23505"}, false},
		{"syntax error", &pgconn.PgError{Code: "42601"}, false},
		{"no such table", &pgconn.PgError{Code: "42P01"}, false},
		{"cancelled", context.Canceled, false},
		{"deadline", fmt.Errorf("query: %w", context.DeadlineExceeded), false},
		{"no rows", sql.ErrNoRows, false},
		{"anything else", errors.New("boom"), false},
	} {
		if got := Transient(tc.err); got != tc.want {
			t.Errorf("%s: Transient(%v) = %v, want %v", tc.name, tc.err, got, tc.want)
		}
	}
}

func TestConflict(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"deadlock", &pgconn.PgError{Code: "40P01"}, true},
		{"wrapped serialization failure", fmt.Errorf("claim: %w", &pgconn.PgError{Code: "40001"}), true},
		{"connection failure", &pgconn.PgError{Code: "08006"}, false},
		{"unique violation", &pgconn.PgError{Code: "23505"}, false},
		{"EOF", io.EOF, false},
	} {
		if got := Conflict(tc.err); got != tc.want {
			t.Errorf("%s: Conflict(%v) = %v, want %v", tc.name, tc.err, got, tc.want)
		}
	}
}

// TestTransientOnRealErrors: what the drivers really return. A locked
// SQLite database and a server that refuses the connection are transient;
// a constraint violation, on either backend, is not.
func TestTransientOnRealErrors(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "x.db")
	holder, err := sql.Open("sqlite", "file:"+path+"?_busy_timeout=10&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if _, err := holder.ExecContext(ctx, `CREATE TABLE t (k text PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	if _, err := holder.ExecContext(ctx, `INSERT INTO t VALUES ('a')`); err != nil {
		t.Fatal(err)
	}
	tx, err := holder.BeginTx(ctx, nil) // holds the write lock
	if err != nil {
		t.Fatal(err)
	}
	other, err := sql.Open("sqlite", "file:"+path+"?_busy_timeout=10")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	_, err = other.ExecContext(ctx, `INSERT INTO t VALUES ('b')`)
	if !Transient(err) {
		t.Errorf("SQLite locked by another writer: Transient(%v) = false", err)
	}
	tx.Rollback()
	_, err = other.ExecContext(ctx, `INSERT INTO t VALUES ('a')`)
	if err == nil || Transient(err) {
		t.Errorf("SQLite unique violation: %v, want an error that is not transient", err)
	}

	_, err = Open(ctx, "postgres://u@127.0.0.1:1/db?connect_timeout=5", Options{})
	if !Transient(err) {
		t.Errorf("PostgreSQL refusing the connection: Transient(%v) = false", err)
	}
	db, err := Open(ctx, pgtest.Location(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `CREATE TABLE t (k text PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	_, err = db.ExecContext(ctx, `INSERT INTO t VALUES ('a'), ('a')`)
	if err == nil || Transient(err) {
		t.Errorf("PostgreSQL unique violation: %v, want an error that is not transient", err)
	}
}
