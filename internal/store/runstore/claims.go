package runstore

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/triage-eval/triage/internal/store/sqldb"
)

// ClaimCells implements Store.
func (s *sqlStore) ClaimCells(ctx context.Context, keys, fingerprints []string, worker string, now, until time.Time) (map[string]bool, error) {
	return retry(ctx, s, "claiming cells", func() (map[string]bool, error) {
		if len(keys) == 0 {
			return map[string]bool{}, nil
		}
		args := make([]any, 0, 2*len(keys)+3)
		args = append(args, worker, until.UnixMicro())
		for i, k := range keys {
			args = append(args, k, fingerprints[i])
		}
		args = append(args, now.UnixMicro())
		rows, err := s.claims.QueryContext(ctx, claimCellsQuery(len(keys)), args...)
		if err != nil {
			return nil, err
		}
		taken := make(map[string]bool, len(keys))
		if err := scanKeys(rows, taken); err != nil || len(taken) == 0 || s.db.Dialect != sqldb.Postgres {
			return taken, err
		}
		kept, err := s.dropStoredMeanwhile(ctx, taken, keys, fingerprints, worker)
		if err != nil {
			// The claims just taken are not returned: give them back rather
			// than leave them held until their lease ends (done again, the
			// claim takes them anew).
			_ = s.ReleaseKeys(context.WithoutCancel(ctx), worker, slices.Collect(maps.Keys(taken)))
		}
		return kept, err
	})
}

// dropStoredMeanwhile gives back the claims just taken (taken, of keys
// with fingerprints) on cells another worker stored fresh while they were
// being claimed, and returns the claims kept. On PostgreSQL a claim reads
// cells on the snapshot its statement began with, but writes its claim
// after waiting for the holder's save, which releases the holder's claim
// as it stores the cell: a save that commits in between is invisible to
// the claim yet lets it through. A statement of its own sees that save.
// SQLite runs one writer at a time and needs no second look.
func (s *sqlStore) dropStoredMeanwhile(ctx context.Context, taken map[string]bool, keys, fingerprints []string, worker string) (map[string]bool, error) {
	args := make([]any, 0, 2*len(taken)+1)
	args = append(args, worker)
	for i, k := range keys {
		if taken[k] {
			args = append(args, k, fingerprints[i])
		}
	}
	rows, err := s.claims.QueryContext(ctx, `DELETE FROM claims WHERE worker = ? AND key IN (
			SELECT v.column1 FROM (VALUES `+placeholders(len(taken), 2)+`) AS v WHERE EXISTS `+storedFresh+`)
		RETURNING key`, args...)
	if err != nil {
		return nil, err
	}
	stored := map[string]bool{}
	if err := scanKeys(rows, stored); err != nil {
		return nil, err
	}
	for k := range stored {
		delete(taken, k)
	}
	return taken, nil
}

// storedFresh is the subquery that finds the cell (key, fingerprint) =
// (v.column1, v.column2) stored fresh: with that fingerprint and not
// failed (StoredCell.Fresh). It is one primary-key lookup per key: OFFSET 0
// keeps PostgreSQL from turning an EXISTS or NOT EXISTS on it into a
// (anti-)join, see claimCellsQuery.
const storedFresh = `(SELECT 1 FROM cells WHERE cells.key = v.column1 AND cells.fingerprint = v.column2 AND cells.excluded <> 'error' LIMIT 1 OFFSET 0)`

// claimCellsQuery claims n cells, given as (key, fingerprint) pairs after
// the worker and the lease's end, followed by now: each cell not stored
// with that fingerprint (an error outcome does not count) and not held by
// another worker's live lease. It returns the keys claimed.
//
// The stored-cell check is one primary-key lookup per key. OFFSET 0 keeps
// PostgreSQL from turning the NOT EXISTS into an anti-join, whose generic
// plan — cached by the prepared statement from the first claims, made
// while cells was nearly empty — hashes a sequential scan of every stored
// cell on every claim until cells is next analyzed (421,515 rows read for
// 2,304 cells on a server without autovacuum). LIMIT 1 is there only
// because SQLite takes an OFFSET only after a LIMIT; it looks the keys up
// either way.
func claimCellsQuery(n int) string {
	return `INSERT INTO claims (key, worker, expires_at)
			SELECT v.column1, ?, ? FROM (VALUES ` + placeholders(n, 2) + `) AS v
			WHERE NOT EXISTS ` + storedFresh + `
			ON CONFLICT (key) DO UPDATE SET worker = excluded.worker, expires_at = excluded.expires_at
			WHERE claims.expires_at < ? OR claims.worker = excluded.worker
			RETURNING key`
}

// Holders implements Store.
func (s *sqlStore) Holders(ctx context.Context) (map[string]time.Time, error) {
	return retry(ctx, s, "reading the claims", func() (map[string]time.Time, error) {
		rows, err := s.claims.QueryContext(ctx, `SELECT key, expires_at FROM claims`)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		out := map[string]time.Time{}
		for rows.Next() {
			var k string
			var us int64
			if err := rows.Scan(&k, &us); err != nil {
				return nil, err
			}
			out[k] = time.UnixMicro(us)
		}
		return out, rows.Err()
	})
}
