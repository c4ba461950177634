package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

// DSNEnv names the variable holding the DSN of a PostgreSQL server the
// tests may create schemas in.
const DSNEnv = "TRIAGE_TEST_POSTGRES_DSN"

// DSN returns the test server's DSN, or skips tb.
func DSN(tb testing.TB) string {
	tb.Helper()
	dsn := os.Getenv(DSNEnv)
	if dsn == "" {
		tb.Skipf("%s not set; skipping PostgreSQL tests (e.g. %s='postgres://postgres@127.0.0.1:5432/test?sslmode=disable')", DSNEnv, DSNEnv)
	}
	return dsn
}

// Location creates a fresh schema, dropped when tb ends, and returns the
// test server's DSN with search_path set to it: every store opened there
// sees an empty database of its own.
func Location(tb testing.TB) string {
	tb.Helper()
	base := DSN(tb)
	var b [8]byte
	rand.Read(b[:])
	schema := "t_" + hex.EncodeToString(b[:])
	Exec(tb, base, "CREATE SCHEMA "+schema)
	tb.Cleanup(func() { Exec(tb, base, "DROP SCHEMA "+schema+" CASCADE") })
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// Exec runs one statement on a direct connection to dsn.
func Exec(tb testing.TB, dsn, sql string, args ...any) {
	tb.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		tb.Fatal(err)
	}
	defer func() { _ = conn.Close(ctx) }() // the statement ran, or failed the test
	if _, err := conn.Exec(ctx, sql, args...); err != nil {
		tb.Fatalf("%s: %v", sql, err)
	}
}
