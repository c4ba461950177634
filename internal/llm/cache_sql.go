package llm

import (
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/triage-eval/triage/internal/store/sqldb"
	"github.com/triage-eval/triage/internal/store/sqlitedsn"
)

// SQLCache is a durable Cache in a SQL database: a SQLite file (the
// default; WAL, busy timeout, shared safely by the processes and goroutines
// that open it) or PostgreSQL (postgres://…, shared by every machine of a
// grid, so that a prompt one worker had answered is never asked again by
// another).
type SQLCache struct {
	db *sqldb.DB
}

// cacheMigrationFiles holds the cache's versioned schema, one directory per
// dialect (see sqldb.Schema).
//
//go:embed migrations
var cacheMigrationFiles embed.FS

// cacheSchema returns the cache's schema, as package sqldb applies it. A
// cache records its version in the table llm_cache_migrations; those of
// the releases before versions have none, and are at version 0.
func cacheSchema() sqldb.Schema {
	return sqldb.Schema{Files: cacheMigrationFiles, Dir: "migrations", Ledger: sqldb.VersionTable("llm_cache_migrations"), Lock: "triage/llm-cache:"}
}

// OpenCache opens (creating if missing) the cache at location: a SQLite
// file path (":memory:" gives a private in-memory cache) or a postgres://
// URL. Close it when done.
func OpenCache(ctx context.Context, location string) (_ *SQLCache, err error) {
	db, err := sqldb.Open(ctx, location, sqldb.Options{
		// Migrations take the write lock at their start (sqldb.Migrate).
		SQLite: sqlitedsn.Options{ImmediateTx: true},
		// Each connection to ":memory:" would get its own empty database.
		OneConnection: location == sqlitedsn.Memory,
		// A response lost to a crash of the database server itself is only
		// asked again; not waiting for the disk on every Put keeps a
		// grid's workers from queueing behind fsyncs.
		Transient: true,
	})
	if err != nil {
		return nil, fmt.Errorf("llm cache: open %w", err)
	}
	if err = db.Migrate(ctx, cacheSchema()); err != nil {
		_ = db.Close() // the migration's error is the one to report
		return nil, fmt.Errorf("llm cache: open %s: %w", db.Location, err)
	}
	return &SQLCache{db: db}, nil
}

// OpenCacheToRead opens the cache at location for a caller that only
// reads, such as a quote: nothing is created, migrated or written
// (sqldb.Options.ReadOnly; a Put fails), so a cache in a directory this
// process cannot write (another user's, an archive) opens too. A cache of
// an older schema is opened by OpenCache, which brings it up to date and
// so must be able to write it; ":memory:" is OpenCache's private cache.
func OpenCacheToRead(ctx context.Context, location string) (*SQLCache, error) {
	if location == "" || location == sqlitedsn.Memory {
		return OpenCache(ctx, location)
	}
	db, err := sqldb.Open(ctx, location, sqldb.Options{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("llm cache: open %w", err)
	}
	upToDate, err := db.UpToDate(ctx, cacheSchema())
	switch {
	case err != nil:
		return nil, errors.Join(fmt.Errorf("llm cache: open %s: %w", db.Location, err), db.Close())
	case !upToDate:
		_ = db.Close() // only read; OpenCache reports what matters
		c, err := OpenCache(ctx, location)
		if err != nil {
			return nil, sqldb.OlderSchema(err)
		}
		return c, nil
	}
	return &SQLCache{db: db}, nil
}

// Get implements Cache.
func (c *SQLCache) Get(ctx context.Context, key string) (Response, bool, error) {
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

// Has implements KeyChecker: whether a response is stored under key,
// without reading it.
func (c *SQLCache) Has(ctx context.Context, key string) (bool, error) {
	var one int
	err := c.db.QueryRowContext(ctx, `SELECT 1 FROM llm_cache WHERE key = ?`, key).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("llm cache: has: %w", err)
	}
	return true, nil
}

// hasKeysChunk bounds the keys of one HasKeys statement (SQLite's and
// PostgreSQL's bound parameters allow far more).
const hasKeysChunk = 500

// HasKeys implements KeysChecker: one query per hasKeysChunk keys.
func (c *SQLCache) HasKeys(ctx context.Context, keys []string) (map[string]bool, error) {
	out := map[string]bool{}
	for start := 0; start < len(keys); start += hasKeysChunk {
		chunk := keys[start:min(start+hasKeysChunk, len(keys))]
		args := make([]any, len(chunk))
		for i, k := range chunk {
			args[i] = k
		}
		err := func() error {
			rows, err := c.db.QueryContext(ctx, `SELECT key FROM llm_cache WHERE key IN (`+strings.TrimSuffix(strings.Repeat("?, ", len(chunk)), ", ")+`)`, args...)
			if err != nil {
				return err
			}
			defer func() { _ = rows.Close() }() // read only; rows.Err reports
			for rows.Next() {
				var k string
				if err := rows.Scan(&k); err != nil {
					return err
				}
				out[k] = true
			}
			return rows.Err()
		}()
		if err != nil {
			return nil, fmt.Errorf("llm cache: has keys: %w", err)
		}
	}
	return out, nil
}

// Put implements Cache; the first response stored under a key stays.
func (c *SQLCache) Put(ctx context.Context, key string, r Response) error {
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
func (c *SQLCache) Len(ctx context.Context) (int, error) {
	var n int
	if err := c.db.QueryRowContext(ctx, `SELECT count(*) FROM llm_cache`).Scan(&n); err != nil {
		return 0, fmt.Errorf("llm cache: count: %w", err)
	}
	return n, nil
}

// Close releases the database.
func (c *SQLCache) Close() error { return c.db.Close() }
