// Package pgtest gives tests a PostgreSQL database of their own: a fresh
// schema on the server named by TRIAGE_TEST_POSTGRES_DSN, dropped when the
// test ends, as a location the stores open. Without the variable the test
// is skipped (CI sets it).
package pgtest
