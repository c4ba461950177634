package groundtruth

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/triage-eval/triage/internal/store/sqldb"
)

// pgStore is the PostgreSQL backend: a pgx connection pool. Imports run in
// one transaction each on one pooled connection; reads use any other, and
// see the last committed state (READ COMMITTED).
type pgStore struct {
	location string // redacted, for errors
	pool     *pgxpool.Pool
	// db is the pool seen through database/sql, for package sqldb's
	// migrations.
	db *sqldb.DB
}

// openPostgres connects to the database at dsn (a postgres:// URL; extra
// query parameters such as search_path become session settings) and
// migrates it.
func openPostgres(ctx context.Context, dsn string) (_ Store, err error) {
	s := &pgStore{location: sqldb.Redact(dsn)}
	defer func() {
		if err != nil {
			_ = s.Close() // the open's error is the one to report
			err = fmt.Errorf("store: open %s: %w", s.location, err)
		}
	}()
	cfg, err := pgxpool.ParseConfig(sqldb.PostgresDSN(dsn, sqldb.Options{}))
	if err != nil {
		return nil, err
	}
	if s.pool, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
		return nil, err
	}
	if err = s.pool.Ping(ctx); err != nil {
		return nil, err
	}
	s.db = sqldb.New(stdlib.OpenDBFromPool(s.pool), sqldb.Postgres, dsn)
	if err = s.db.Migrate(ctx, schema()); err != nil {
		return nil, err
	}
	return s, nil
}

// Close releases the pool.
func (s *pgStore) Close() error {
	if s.db != nil {
		_ = s.db.Close() // leaves the pool open: closing the pool below releases the connections
	}
	if s.pool != nil {
		s.pool.Close()
	}
	return nil
}
