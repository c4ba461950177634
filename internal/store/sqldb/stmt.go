package sqldb

import (
	"context"
	"database/sql"
)

// Stmt is a statement prepared once and run many times, in a DB's
// transactions: on SQLite, parsing a statement can cost more than running
// it.
type Stmt struct{ s *sql.Stmt }

// Prepare prepares query (? placeholders) for the DB's connections.
func (db *DB) Prepare(ctx context.Context, query string) (*Stmt, error) {
	s, err := db.db.PrepareContext(ctx, db.Dialect.Rebind(query))
	if err != nil {
		return nil, err
	}
	return &Stmt{s}, nil
}

// Close releases the statement.
func (s *Stmt) Close() error { return s.s.Close() }

// ExecStmt runs s in the transaction.
func (t *Tx) ExecStmt(ctx context.Context, s *Stmt, args ...any) (sql.Result, error) {
	return t.tx.StmtContext(ctx, s.s).ExecContext(ctx, args...)
}

// QueryRowStmt runs s, a one-row query, in the transaction.
func (t *Tx) QueryRowStmt(ctx context.Context, s *Stmt, args ...any) *sql.Row {
	return t.tx.StmtContext(ctx, s.s).QueryRowContext(ctx, args...)
}
