package runstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/triage-eval/triage/internal/store/sqldb"
)

// FreshCells implements Store: one query per batchRows keys, each key
// looked up by the primary key. A failed attempt is not fresh
// (StoredCell.Fresh).
func (s *sqlStore) FreshCells(ctx context.Context, keys []string) (map[string]string, error) {
	return retry(ctx, s, "reading the stored cells", func() (map[string]string, error) {
		out := make(map[string]string, len(keys))
		for chunk := range slices.Chunk(keys, batchRows) {
			args := make([]any, len(chunk))
			for i, k := range chunk {
				args[i] = k
			}
			fresh, err := pairsOf(ctx, s.db, `SELECT key, fingerprint FROM cells WHERE excluded <> 'error' AND key IN (`+placeholders(len(chunk), 1)+`)`, args...)
			if err != nil {
				return nil, err
			}
			maps.Copy(out, fresh)
		}
		return out, nil
	})
}

// ClaimKeys implements Store.
func (s *sqlStore) ClaimKeys(ctx context.Context, keys []string, worker string, now, until time.Time) (map[string]bool, error) {
	return retry(ctx, s, "claiming units", func() (map[string]bool, error) {
		taken := make(map[string]bool, len(keys))
		if len(keys) == 0 {
			return taken, nil
		}
		args := make([]any, 0, 3*len(keys)+1)
		for _, k := range keys {
			args = append(args, k, worker, until.UnixMicro())
		}
		args = append(args, now.UnixMicro())
		rows, err := s.claims.QueryContext(ctx, `INSERT INTO claims (key, worker, expires_at) VALUES `+placeholders(len(keys), 3)+`
			ON CONFLICT (key) DO UPDATE SET worker = excluded.worker, expires_at = excluded.expires_at
			WHERE claims.expires_at < ? OR claims.worker = excluded.worker
			RETURNING key`, args...)
		if err != nil {
			return nil, err
		}
		return taken, scanKeys(rows, taken)
	})
}

// RenewAll implements Store.
func (s *sqlStore) RenewAll(ctx context.Context, worker string, until time.Time) error {
	_, err := s.claims.ExecContext(ctx, `UPDATE claims SET expires_at = ? WHERE worker = ?`, until.UnixMicro(), worker)
	return err
}

// ReleaseKeys implements Store. A deadlock with another worker's claim is
// broken by doing it again (againOnConflict); an outage is not waited out
// (a claim not released ends with its lease).
func (s *sqlStore) ReleaseKeys(ctx context.Context, worker string, keys []string) error {
	if len(keys) == 0 {
		return nil
	}
	args := make([]any, 0, len(keys)+1)
	args = append(args, worker)
	for _, k := range keys {
		args = append(args, k)
	}
	_, err := againOnConflict(func() (struct{}, error) {
		_, err := s.claims.ExecContext(ctx, `DELETE FROM claims WHERE worker = ? AND key IN (`+placeholders(len(keys), 1)+`)`, args...)
		return struct{}{}, err
	})()
	return err
}

// CellOutcome is what CellSaver.Save stores of one cell.
type CellOutcome struct {
	// Key and Fingerprint name the cell and its inputs.
	Key, Fingerprint string
	// Plan is the planner's response (protojson), nil when none was made.
	Plan []byte
	// Excluded and Detail say why the cell is excluded; "" when scored.
	Excluded, Detail string
	// DoneAt is when it was computed, in Unix microseconds.
	DoneAt int64
	// Scores are its records, one per regime.
	Scores []ScoreRecord
}

// CellSaver stores cells for one run: on SQLite with statements
// prepared once, as parsing them costs more than running them.
type CellSaver struct {
	s *sqlStore
	// On SQLite: the cell's upsert, its old scores' deletion, one score's
	// insertion and the claim's release.
	upsert, clear, score, release *sqldb.Stmt
}

// CellSaver implements Store.
func (s *sqlStore) CellSaver(ctx context.Context) (*CellSaver, error) {
	c := &CellSaver{s: s}
	if s.db.Dialect == sqldb.Postgres {
		return c, nil
	}
	for _, st := range []struct {
		into  **sqldb.Stmt
		query string
	}{
		{&c.upsert, insertCell + ` RETURNING key`},
		{&c.clear, `DELETE FROM scores WHERE key = ?`},
		{&c.score, `INSERT INTO scores (key, regime, record) VALUES (?, ?, ?)`},
		{&c.release, `DELETE FROM claims WHERE key = ? AND worker = ?`},
	} {
		var err error
		if *st.into, err = s.db.Prepare(ctx, st.query); err != nil {
			_ = c.Close() // the prepare's error is the one to report
			return nil, err
		}
	}
	return c, nil
}

// Close releases the prepared statements.
func (c *CellSaver) Close() error {
	var errs []error
	for _, st := range []*sqldb.Stmt{c.upsert, c.clear, c.score, c.release} {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	return errors.Join(errs...)
}

// Save stores each of cells unless it is stored fresh: it replaces a
// stale or failed attempt, never a fresh one (another worker finished it
// first: nothing is written), so that every cell is stored exactly once.
// It releases worker's claims on cells, stored or not, and returns the
// keys it stored. The cells go together, so that handing it more at once
// saves writes: on SQLite in one transaction, on PostgreSQL in one
// statement (one round trip and one commit) per run of cells without a
// key twice, one after another, as if each were saved in turn.
func (c *CellSaver) Save(ctx context.Context, worker string, cells []CellOutcome) (map[string]bool, error) {
	records := make([][]string, len(cells))
	for i, cell := range cells {
		records[i] = make([]string, len(cell.Scores))
		for j, r := range cell.Scores {
			rec, err := json.Marshal(r)
			if err != nil {
				return nil, err
			}
			records[i][j] = string(rec)
		}
	}
	s := c.s
	if s.db.Dialect != sqldb.Postgres {
		return retry(ctx, s, "saving cells", func() (map[string]bool, error) {
			return c.saveTx(ctx, worker, cells, records)
		})
	}
	stored := make(map[string]bool, len(cells))
	for len(cells) > 0 {
		n := distinctPrefix(cells)
		part, partRecords := cells[:n], records[:n]
		saved, err := retry(ctx, s, "saving cells", func() (map[string]bool, error) {
			return s.saveCellsOneTrip(ctx, worker, part, partRecords)
		})
		if err != nil {
			return nil, err
		}
		for k := range saved {
			stored[k] = true // a key given twice: stored by either save
		}
		cells, records = cells[n:], records[n:]
	}
	return stored, nil
}

// distinctPrefix is the length of the longest prefix of cells without a
// key twice (at least 1): one statement cannot write a row twice.
func distinctPrefix(cells []CellOutcome) int {
	seen := make(map[string]bool, len(cells))
	for i, c := range cells {
		if seen[c.Key] {
			return i
		}
		seen[c.Key] = true
	}
	return len(cells)
}

// saveTx is Save in one SQLite transaction.
func (c *CellSaver) saveTx(ctx context.Context, worker string, cells []CellOutcome, records [][]string) (map[string]bool, error) {
	tx, err := c.s.db.BeginTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	stored := make(map[string]bool, len(cells))
	for i, cell := range cells {
		var written string
		err := tx.QueryRowStmt(ctx, c.upsert, cell.Key, string(cell.Plan), cell.Excluded, cell.Detail, cell.DoneAt, cell.Fingerprint).Scan(&written)
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return nil, err
		default:
			stored[cell.Key] = true
			if _, err := tx.ExecStmt(ctx, c.clear, cell.Key); err != nil {
				return nil, err
			}
			for j, r := range cell.Scores {
				if _, err := tx.ExecStmt(ctx, c.score, cell.Key, r.Regime, records[i][j]); err != nil {
					return nil, err
				}
			}
		}
		// The lease ends with the commit: it has no value beyond it.
		if _, err := tx.ExecStmt(ctx, c.release, cell.Key, worker); err != nil {
			return nil, err
		}
	}
	return stored, tx.Commit()
}

// scanKeys adds the keys rows return to into and closes rows.
func scanKeys(rows *sql.Rows, into map[string]bool) error {
	defer rows.Close()
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return err
		}
		into[k] = true
	}
	return rows.Err()
}

// placeholders returns n tuples of width placeholders: "(?, ?), (?, ?)",
// or "?, ?" when width is 1.
func placeholders(n, width int) string {
	one := strings.TrimSuffix(strings.Repeat("?, ", width), ", ")
	if width > 1 {
		one = "(" + one + ")"
	}
	return strings.Join(slices.Repeat([]string{one}, n), ", ")
}
