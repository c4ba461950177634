// Package pgtest gives tests a PostgreSQL database of their own: a fresh
// schema on the server named by TRIAGE_TEST_POSTGRES_DSN, dropped when the
// test ends, as a location the stores open, or reached through a Proxy the
// test can cut to play an outage (Proxied). Without the variable the test
// is skipped (CI sets it).
package pgtest
