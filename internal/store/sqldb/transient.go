package sqldb

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Transient reports whether err is a store failure that may pass on its
// own, so that the whole operation is worth doing again: the connection to
// the server refused, reset, closed or cut (EOF), a timeout of the
// network, PostgreSQL shutting down, starting up or out of connections
// (SQLSTATE class 08, 57P01–57P03, 53300), a SQLite database locked past
// its busy timeout. A constraint violation, a syntax error, a missing
// table — anything the server answered about the statement itself — is
// not, and neither is the caller's own context ending.
func Transient(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		switch {
		case len(pg.Code) == 5 && pg.Code[:2] == "08", // connection exception
			pg.Code == "57P01", pg.Code == "57P02", pg.Code == "57P03", // admin or crash shutdown, cannot connect now
			pg.Code == "53300": // too many connections
			return true
		}
		return false
	}
	if isBusy(err) {
		return true
	}
	var netErr net.Error
	var connect *pgconn.ConnectError
	return errors.Is(err, driver.ErrBadConn) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, net.ErrClosed) || errors.Is(err, pgconn.ErrConnClosed) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNABORTED) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ETIMEDOUT) || errors.Is(err, syscall.EHOSTUNREACH) ||
		errors.Is(err, syscall.ENETUNREACH) || errors.As(err, &netErr) || errors.As(err, &connect) ||
		pgconn.Timeout(err) || pgconn.SafeToRetry(err)
}

// Conflict reports whether err is PostgreSQL aborting a statement to break
// a conflict with another transaction: a deadlock (SQLSTATE 40P01), as
// between two workers that lock some of the same claims in different
// orders, or a serialization failure (40001). The other transaction goes
// on; the statement, done again at once, waits for it and succeeds.
func Conflict(err error) bool {
	var pg *pgconn.PgError
	return errors.As(err, &pg) && (pg.Code == "40P01" || pg.Code == "40001")
}

// isBusy reports whether err is SQLite's SQLITE_BUSY or SQLITE_LOCKED.
func isBusy(err error) bool {
	code := sqlitePrimaryCode(err)
	return code == sqlite3.SQLITE_BUSY || code == sqlite3.SQLITE_LOCKED
}

// isReadOnly reports whether err is SQLite's answer to opening, reading or
// writing a file this process may only read: SQLITE_READONLY (of which
// SQLITE_READONLY_DIRECTORY, a WAL file whose -shm cannot be made, and
// SQLITE_READONLY_ROLLBACK, a hot journal that cannot be rolled back) or
// SQLITE_CANTOPEN.
func isReadOnly(err error) bool {
	code := sqlitePrimaryCode(err)
	return code == sqlite3.SQLITE_READONLY || code == sqlite3.SQLITE_CANTOPEN
}

// sqlitePrimaryCode is the primary result code of SQLite's error err (of
// an extended one, its primary part), or -1 when err is not SQLite's.
func sqlitePrimaryCode(err error) int {
	var lite *sqlite.Error
	if !errors.As(err, &lite) {
		return -1
	}
	return lite.Code() & 0xff
}
