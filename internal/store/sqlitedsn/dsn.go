// Package sqlitedsn builds the modernc.org/sqlite connection string every
// TRIAGE database uses, so the pragmas and the path escaping live in one
// place: WAL (readers and the writer do not block each other),
// synchronous=NORMAL (safe in WAL), and a 5 s busy timeout for other
// connections and processes. The driver applies them to every connection a
// pool opens, busy_timeout first. A file opened ReadOnly keeps its own
// journal mode and takes no write.
package sqlitedsn

import (
	"net/url"
	"strings"
)

// Memory is the path of a private in-memory database.
const Memory = ":memory:"

// Options are the per-database choices.
type Options struct {
	// ForeignKeys enforces foreign keys.
	ForeignKeys bool
	// ImmediateTx begins transactions IMMEDIATE, taking the write lock up
	// front instead of failing to upgrade a read lock later.
	ImmediateTx bool
	// QueryOnly refuses writes on the connection.
	QueryOnly bool
	// ReadOnly opens an existing file (mode=rw: never created) and refuses
	// writes (query_only), leaving its journal mode as it is. SQLite may
	// still merge a -wal file into it, or roll a crashed writer's journal
	// back, as any connection does; a file SQLite cannot write those for
	// (its directory is read-only) fails its first read.
	ReadOnly bool
}

// DSN returns the connection string of the database at path. An in-memory
// database gets the busy timeout, synchronous and foreign-key settings only
// (WAL, transaction mode and query-only do not apply to it); a read-only
// one the busy timeout, foreign keys and query-only.
func DSN(path string, o Options) string {
	q := url.Values{}
	q.Set("_busy_timeout", "5000")
	if o.ForeignKeys {
		q.Set("_foreign_keys", "1")
	}
	if o.ReadOnly && path != Memory {
		q.Set("mode", "rw")
		q.Set("_query_only", "1")
		return "file:" + escapePath(path) + "?" + q.Encode()
	}
	q.Set("_synchronous", "NORMAL")
	if path == Memory {
		return Memory + "?" + q.Encode()
	}
	q.Set("_journal_mode", "WAL")
	if o.ImmediateTx {
		q.Set("_txlock", "immediate")
	}
	if o.QueryOnly {
		q.Set("_query_only", "1")
	}
	return "file:" + escapePath(path) + "?" + q.Encode()
}

// escapePath escapes the characters that would end or alter the path part
// of an SQLite "file:" URI.
func escapePath(path string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
}
