package sqlitedsn

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	_ "modernc.org/sqlite"
)

func TestDSN(t *testing.T) {
	tests := []struct {
		path string
		o    Options
		want string
	}{
		{"a/b.db", Options{}, "file:a/b.db?_busy_timeout=5000&_journal_mode=WAL&_synchronous=NORMAL"},
		{"a/b.db", Options{ForeignKeys: true, ImmediateTx: true}, "file:a/b.db?_busy_timeout=5000&_foreign_keys=1&_journal_mode=WAL&_synchronous=NORMAL&_txlock=immediate"},
		{"x.db", Options{QueryOnly: true}, "file:x.db?_busy_timeout=5000&_journal_mode=WAL&_query_only=1&_synchronous=NORMAL"},
		{Memory, Options{ForeignKeys: true, ImmediateTx: true}, ":memory:?_busy_timeout=5000&_foreign_keys=1&_synchronous=NORMAL"},
		{"odd?#%.db", Options{}, "file:odd%3f%23%25.db?_busy_timeout=5000&_journal_mode=WAL&_synchronous=NORMAL"},
		{"r.db", Options{ReadOnly: true, ImmediateTx: true}, "file:r.db?_busy_timeout=5000&_query_only=1&mode=rw"},
		{"r.db", Options{ReadOnly: true, ForeignKeys: true}, "file:r.db?_busy_timeout=5000&_foreign_keys=1&_query_only=1&mode=rw"},
	}
	for _, tt := range tests {
		if got := DSN(tt.path, tt.o); got != tt.want {
			t.Errorf("DSN(%q, %+v) = %q, want %q", tt.path, tt.o, got, tt.want)
		}
	}
}

// TestOddPathsOpenWhereTheySay: a path with URI characters is created under
// its own name, in WAL mode.
func TestOddPathsOpenWhereTheySay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run?v=1#x.db")
	db, err := sql.Open("sqlite", DSN(path, Options{ImmediateTx: true}))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var mode string
	if err := db.QueryRowContext(context.Background(), "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q, %v", mode, err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("database not at %q: %v", path, err)
	}
}
