package orchestrator

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/triage-eval/triage/internal/runs/report"
	"github.com/triage-eval/triage/internal/runs/work"
	"github.com/triage-eval/triage/internal/store/sqldb"
)

// unitStore is the run store as the work.Store of one kind of unit: cells
// (claimed only when not stored fresh, see ClaimCells) or any other unit
// claimed by key, whose stored fresh outcomes fresh reads.
type unitStore struct {
	s     *RunStore
	cells bool
	fresh func(context.Context) (map[string]string, error)
}

// CellUnits is the run store as the work.Store of the grid's cells.
func (s *RunStore) CellUnits() work.Store {
	return unitStore{s: s, cells: true, fresh: s.freshCells}
}

// Units is the run store as the work.Store of units claimed by key
// (baseline problems, re-solves) whose stored fresh fingerprints fresh
// returns by key; a nil fresh knows of none.
func (s *RunStore) Units(fresh func(context.Context) (map[string]string, error)) work.Store {
	if fresh == nil {
		fresh = func(context.Context) (map[string]string, error) { return nil, nil }
	}
	return unitStore{s: s, fresh: fresh}
}

// Claim claims cells with ClaimCells, other units with ClaimKeys.
func (u unitStore) Claim(ctx context.Context, keys, fingerprints []string, worker string, now, until time.Time) (map[string]bool, error) {
	if u.cells {
		return u.s.ClaimCells(ctx, keys, fingerprints, worker, now, until)
	}
	return u.s.ClaimKeys(ctx, keys, worker, now, until)
}

// Renew renews every lease of worker.
func (u unitStore) Renew(ctx context.Context, worker string, until time.Time) error {
	return u.s.RenewAll(ctx, worker, until)
}

// Release gives up worker's claims on keys.
func (u unitStore) Release(ctx context.Context, worker string, keys []string) error {
	return u.s.ReleaseKeys(ctx, worker, keys)
}

// Holders returns every claimed key with when its lease ends.
func (u unitStore) Holders(ctx context.Context) (map[string]time.Time, error) {
	return u.s.Holders(ctx)
}

// Fresh returns the fresh units' fingerprints by key.
func (u unitStore) Fresh(ctx context.Context) (map[string]string, error) { return u.fresh(ctx) }

// freshCells returns the fingerprint of every cell stored fresh (not
// failed) by key.
func (s *RunStore) freshCells(ctx context.Context) (map[string]string, error) {
	stored, err := s.Cells(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(stored))
	for k, c := range stored {
		if c.fresh(c.Fingerprint) {
			out[k] = c.Fingerprint
		}
	}
	return out, nil
}

// ClaimKeys claims, as Claim does, each of keys, in one statement, and
// returns the keys taken.
func (s *RunStore) ClaimKeys(ctx context.Context, keys []string, worker string, now, until time.Time) (map[string]bool, error) {
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
		defer rows.Close()
		for rows.Next() {
			var k string
			if err := rows.Scan(&k); err != nil {
				return nil, err
			}
			taken[k] = true
		}
		return taken, rows.Err()
	})
}

// RenewAll extends every lease worker holds until until, in one
// statement.
func (s *RunStore) RenewAll(ctx context.Context, worker string, until time.Time) error {
	_, err := s.claims.ExecContext(ctx, `UPDATE claims SET expires_at = ? WHERE worker = ?`, until.UnixMicro(), worker)
	return err
}

// ReleaseKeys gives up worker's claims on keys, in one statement.
func (s *RunStore) ReleaseKeys(ctx context.Context, worker string, keys []string) error {
	if len(keys) == 0 {
		return nil
	}
	args := make([]any, 0, len(keys)+1)
	args = append(args, worker)
	for _, k := range keys {
		args = append(args, k)
	}
	_, err := s.claims.ExecContext(ctx, `DELETE FROM claims WHERE worker = ? AND key IN (`+placeholders(len(keys), 1)+`)`, args...)
	return err
}

// CellOutcome is what SaveCells stores of one cell.
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
	Scores []report.ScoreRecord
}

// SaveCells stores cells as SaveCell does each — replacing a stale or
// failed attempt, never a fresh one, and releasing worker's claims — and
// returns the keys it stored. On SQLite the cells go in one transaction
// of four statements; on PostgreSQL each goes in one statement, so that
// workers' saves never wait on each other's rows.
func (s *RunStore) SaveCells(ctx context.Context, worker string, cells []CellOutcome) (map[string]bool, error) {
	records := make([][]string, len(cells))
	for i, c := range cells {
		records[i] = make([]string, len(c.Scores))
		for j, r := range c.Scores {
			rec, err := json.Marshal(r)
			if err != nil {
				return nil, err
			}
			records[i][j] = string(rec)
		}
	}
	if s.db.Dialect == sqldb.Postgres {
		stored := make(map[string]bool, len(cells))
		for i, c := range cells {
			ok, err := retry(ctx, s, "saving a cell", func() (bool, error) {
				return s.saveCellOneTrip(ctx, c.Key, c.Fingerprint, worker, c.Plan, c.Excluded, c.Detail, c.DoneAt, c.Scores, records[i])
			})
			if err != nil {
				return nil, err
			}
			stored[c.Key] = ok
		}
		return stored, nil
	}
	return retry(ctx, s, "saving cells", func() (map[string]bool, error) {
		return s.saveCellsTx(ctx, worker, cells, records)
	})
}

// saveCellsTx is SaveCells in one SQLite transaction.
func (s *RunStore) saveCellsTx(ctx context.Context, worker string, cells []CellOutcome, records [][]string) (map[string]bool, error) {
	tx, err := s.db.BeginTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	args := make([]any, 0, 6*len(cells))
	for _, c := range cells {
		args = append(args, c.Key, string(c.Plan), c.Excluded, c.Detail, c.DoneAt, c.Fingerprint)
	}
	rows, err := tx.QueryContext(ctx, `INSERT INTO cells (key, plan, excluded, detail, done_at, fingerprint) VALUES `+placeholders(len(cells), 6)+`
		ON CONFLICT (key) DO UPDATE SET plan = excluded.plan, excluded = excluded.excluded, detail = excluded.detail,
			done_at = excluded.done_at, fingerprint = excluded.fingerprint
		WHERE cells.fingerprint <> excluded.fingerprint OR cells.excluded = 'error'
		RETURNING key`, args...)
	if err != nil {
		return nil, err
	}
	stored := make(map[string]bool, len(cells))
	if err := scanKeys(rows, stored); err != nil {
		return nil, err
	}
	var keys, scoreArgs []any
	for i, c := range cells {
		if !stored[c.Key] {
			continue
		}
		keys = append(keys, c.Key)
		for j, r := range c.Scores {
			scoreArgs = append(scoreArgs, c.Key, r.Regime, records[i][j])
		}
	}
	if len(keys) > 0 {
		if _, err := tx.ExecContext(ctx, `DELETE FROM scores WHERE key IN (`+placeholders(len(keys), 1)+`)`, keys...); err != nil {
			return nil, err
		}
	}
	if len(scoreArgs) > 0 {
		if _, err := tx.ExecContext(ctx, `INSERT INTO scores (key, regime, record) VALUES `+placeholders(len(scoreArgs)/3, 3), scoreArgs...); err != nil {
			return nil, err
		}
	}
	// The leases end with the commit: they have no value beyond it.
	claimArgs := []any{worker}
	for _, c := range cells {
		claimArgs = append(claimArgs, c.Key)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM claims WHERE worker = ? AND key IN (`+placeholders(len(cells), 1)+`)`, claimArgs...); err != nil {
		return nil, err
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
