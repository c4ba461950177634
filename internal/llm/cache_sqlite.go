package llm

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver

	"github.com/triage-eval/triage/internal/store/sqlitedsn"
)

// SQLiteCache is a durable Cache in one SQLite file, shared safely by the
// processes and goroutines that open it (WAL journal, busy timeout).
type SQLiteCache struct {
	db *sql.DB
}

// sqliteCacheSchema creates the one table of the cache. obtained_at is
// RFC 3339 UTC with nanoseconds, for inspection and pruning; response is
// the JSON encoding of Response.
const sqliteCacheSchema = `CREATE TABLE IF NOT EXISTS llm_cache (
	key         TEXT PRIMARY KEY,
	response    TEXT NOT NULL,
	obtained_at TEXT NOT NULL
) WITHOUT ROWID`

// OpenCache opens (creating if missing) the SQLite cache at path;
// ":memory:" gives a private in-memory cache. Close it when done.
func OpenCache(ctx context.Context, path string) (_ *SQLiteCache, err error) {
	if path == "" {
		return nil, errors.New("llm cache: empty database path")
	}
	db, err := sql.Open("sqlite", sqlitedsn.DSN(path, sqlitedsn.Options{}))
	if err != nil {
		return nil, fmt.Errorf("llm cache: open %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			db.Close()
			err = fmt.Errorf("llm cache: open %s: %w", path, err)
		}
	}()
	if path == ":memory:" {
		// Each connection would get its own empty database.
		db.SetMaxOpenConns(1)
		db.SetConnMaxLifetime(0)
		db.SetConnMaxIdleTime(0)
	}
	if _, err = db.ExecContext(ctx, sqliteCacheSchema); err != nil {
		return nil, err
	}
	return &SQLiteCache{db: db}, nil
}

// Get implements Cache.
func (c *SQLiteCache) Get(ctx context.Context, key string) (Response, bool, error) {
	var doc string
	err := c.db.QueryRowContext(ctx, `SELECT response FROM llm_cache WHERE key = ?`, key).Scan(&doc)
	if errors.Is(err, sql.ErrNoRows) {
		return Response{}, false, nil
	}
	if err != nil {
		return Response{}, false, fmt.Errorf("llm cache: get: %w", err)
	}
	var r Response
	if err := json.Unmarshal([]byte(doc), &r); err != nil {
		return Response{}, false, fmt.Errorf("llm cache: entry %s: %w", key, err)
	}
	return r, true, nil
}

// Put implements Cache; the first response stored under a key stays.
func (c *SQLiteCache) Put(ctx context.Context, key string, r Response) error {
	doc, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("llm cache: put: %w", err)
	}
	_, err = c.db.ExecContext(ctx,
		`INSERT INTO llm_cache (key, response, obtained_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING`,
		key, string(doc), r.ObtainedAt.UTC().Format(time.RFC3339Nano))
	if err != nil {
		return fmt.Errorf("llm cache: put: %w", err)
	}
	return nil
}

// Len returns the number of stored responses.
func (c *SQLiteCache) Len(ctx context.Context) (int, error) {
	var n int
	if err := c.db.QueryRowContext(ctx, `SELECT count(*) FROM llm_cache`).Scan(&n); err != nil {
		return 0, fmt.Errorf("llm cache: count: %w", err)
	}
	return n, nil
}

// Close releases the database.
func (c *SQLiteCache) Close() error { return c.db.Close() }
