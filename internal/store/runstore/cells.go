package runstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/store/sqldb"
)

// SaveManifest implements Store.
func (s *sqlStore) SaveManifest(ctx context.Context, config, pools []byte) error {
	return retryErr(ctx, s, "saving the manifest", func() error {
		_, err := s.db.ExecContext(ctx, `INSERT INTO manifest (id, config, pools) VALUES (1, ?, ?)
			ON CONFLICT (id) DO UPDATE SET config = excluded.config, pools = excluded.pools`, string(config), string(pools))
		return err
	})
}

// SaveGrid implements Store.
func (s *sqlStore) SaveGrid(ctx context.Context, fingerprints map[string]string, accuracy []Accuracy, by GridSaver) error {
	return retryErr(ctx, s, "saving the grid", func() error {
		tx, err := s.db.BeginTx(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if err := s.serialize(ctx, tx, "grid"); err != nil {
			return err
		}
		stored, err := pairsOf(ctx, tx, `SELECT key, fingerprint FROM grid_cells`)
		if err != nil {
			return err
		}
		if err := s.checkGridOwner(ctx, tx, stored, fingerprints, by); err != nil {
			return err
		}
		var gone []any
		for k := range stored {
			if _, keep := fingerprints[k]; !keep {
				gone = append(gone, k)
			}
		}
		if err := execBatched(ctx, tx, `DELETE FROM grid_cells WHERE key IN `, "", 1, gone); err != nil {
			return err
		}
		// Only what changed is written: a worker joining a run whose grid is
		// recorded writes nothing, and a grid of 10,000 cells takes a few
		// statements, not 10,000 round trips.
		var changed []any
		for _, key := range slices.Sorted(maps.Keys(fingerprints)) {
			if fp, ok := stored[key]; !ok || fp != fingerprints[key] {
				changed = append(changed, key, fingerprints[key])
			}
		}
		if err := execBatched(ctx, tx, `INSERT INTO grid_cells (key, fingerprint) VALUES `,
			` ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint`, 2, changed); err != nil {
			return err
		}
		if err := saveAccuracy(ctx, tx, accuracy); err != nil {
			return err
		}
		return tx.Commit()
	})
}

// accuracyKey is the accuracy table's primary key.
type accuracyKey struct{ model, mode, dataset string }

func keyOf(a Accuracy) accuracyKey { return accuracyKey{a.Model, a.Mode, a.Dataset} }

// saveAccuracy makes the accuracy table hold accuracy (the last row of a
// key given twice), writing only what changed: a worker joining a run
// writes nothing, in a transaction that other workers saving the grid wait
// for.
func saveAccuracy(ctx context.Context, tx *sqldb.Tx, accuracy []Accuracy) error {
	stored, err := accuracyRows(ctx, tx)
	if err != nil {
		return err
	}
	was := make(map[accuracyKey]Accuracy, len(stored))
	for _, a := range stored {
		was[keyOf(a)] = a
	}
	want := make(map[accuracyKey]Accuracy, len(accuracy))
	for _, a := range accuracy {
		want[keyOf(a)] = a
	}
	var changed []any
	for _, a := range accuracy {
		k := keyOf(a)
		if last, ok := want[k]; !ok || last != a {
			continue // given again later (the last one is written), or written already
		}
		if old, ok := was[k]; !ok || old != a {
			changed = append(changed, a.Model, a.Mode, a.Dataset, a.Correct, a.Gradeable, a.Unsolvable, a.LuckyGuesses, a.PublicTestsOnly)
		}
		delete(want, k)
		delete(was, k)
	}
	var gone []any
	for _, a := range stored {
		if _, left := was[keyOf(a)]; left {
			gone = append(gone, a.Model, a.Mode, a.Dataset)
		}
	}
	if err := execBatched(ctx, tx, `DELETE FROM accuracy WHERE (model, mode, dataset) IN (`, `)`, 3, gone); err != nil {
		return err
	}
	return execBatched(ctx, tx, `INSERT INTO accuracy (model, mode, dataset, correct, gradeable, unsolvable, lucky_guesses, public_tests_only) VALUES `,
		` ON CONFLICT (model, mode, dataset) DO UPDATE SET correct = excluded.correct, gradeable = excluded.gradeable,
			unsolvable = excluded.unsolvable, lucky_guesses = excluded.lucky_guesses, public_tests_only = excluded.public_tests_only`, 8, changed)
}

// querier runs queries: the store's database or one of its transactions.
type querier interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}

// accuracyRows reads the accuracy table, ordered by solver and dataset.
func accuracyRows(ctx context.Context, q querier) ([]Accuracy, error) {
	rows, err := q.QueryContext(ctx, `SELECT model, mode, dataset, correct, gradeable, unsolvable, lucky_guesses, public_tests_only FROM accuracy ORDER BY model, mode, dataset`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Accuracy
	for rows.Next() {
		var a Accuracy
		if err := rows.Scan(&a.Model, &a.Mode, &a.Dataset, &a.Correct, &a.Gradeable, &a.Unsolvable, &a.LuckyGuesses, &a.PublicTestsOnly); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// serialize makes concurrent transactions that save the same rows (workers
// recording one grid) run one after the other: PostgreSQL takes a
// transaction-scoped advisory lock named by what, for the store's schema;
// SQLite runs one writer at a time anyway.
func (s *sqlStore) serialize(ctx context.Context, tx *sqldb.Tx, what string) error {
	if s.db.Dialect != sqldb.Postgres {
		return nil
	}
	_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('triage/runstore/' || ? || ':' || coalesce(current_schema(), '')))`, what)
	return err
}

// batchRows is how many rows one batched statement writes: within both
// backends' limits on bound parameters (SQLite's 32,766, PostgreSQL's
// 65,535) for the widest rows written this way.
const batchRows = 500

// execBatched runs prefix + a list of rows + suffix over args, width
// values per row, batchRows rows per statement: "(?, ?), (?, ?)" for
// VALUES, or "(?, ?, ?)" for IN when width is 1.
func execBatched(ctx context.Context, tx *sqldb.Tx, prefix, suffix string, width int, args []any) error {
	for len(args) > 0 {
		n := min(len(args)/width, batchRows)
		list := placeholders(n, width)
		if width == 1 {
			list = "(" + list + ")"
		}
		if _, err := tx.ExecContext(ctx, prefix+list+suffix, args[:n*width]...); err != nil {
			return err
		}
		args = args[n*width:]
	}
	return nil
}

// pairsOf runs a two-column query with args (in a transaction or not) into
// a map.
func pairsOf(ctx context.Context, q querier, query string, args ...any) (map[string]string, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, rows.Err()
}

// StoredCell is what the run store knows of a finished cell.
type StoredCell struct {
	// Fingerprint is the fingerprint of the inputs the cell was computed
	// from ("" when stored before fingerprints existed).
	Fingerprint string
	// Excluded is the cell's exclusion reason, "" when it was scored.
	Excluded string
}

// Fresh reports whether the stored cell is the result of inputs with
// fingerprint fp: computed from them and not failed.
func (c StoredCell) Fresh(fp string) bool {
	return c.Fingerprint == fp && c.Excluded != string(metrics.ExcludedError)
}

// Cells implements Store.
func (s *sqlStore) Cells(ctx context.Context) (map[string]StoredCell, error) {
	return retry(ctx, s, "reading the stored cells", func() (map[string]StoredCell, error) {
		rows, err := s.db.QueryContext(ctx, `SELECT key, fingerprint, excluded FROM cells`)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		out := map[string]StoredCell{}
		for rows.Next() {
			var k string
			var c StoredCell
			if err := rows.Scan(&k, &c.Fingerprint, &c.Excluded); err != nil {
				return nil, err
			}
			out[k] = c
		}
		return out, rows.Err()
	})
}

// insertCell stores a cell unless it is stored fresh: it replaces a row
// with another fingerprint (stale) or a failed attempt only.
const insertCell = `INSERT INTO cells (key, plan, excluded, detail, done_at, fingerprint) VALUES (?, ?, ?, ?, ?, ?)
	ON CONFLICT (key) DO UPDATE SET plan = excluded.plan, excluded = excluded.excluded, detail = excluded.detail,
		done_at = excluded.done_at, fingerprint = excluded.fingerprint
	WHERE cells.fingerprint <> excluded.fingerprint OR cells.excluded = 'error'`

// saveCellsQuery is saveCellsOneTrip's statement. The old scores and the
// claims are looked up by key (TestSaveLooksRowsUp).
const saveCellsQuery = `WITH c AS (INSERT INTO cells (key, plan, excluded, detail, done_at, fingerprint)
		SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::text[])
		ON CONFLICT (key) DO UPDATE SET plan = excluded.plan, excluded = excluded.excluded, detail = excluded.detail,
			done_at = excluded.done_at, fingerprint = excluded.fingerprint
		WHERE cells.fingerprint <> excluded.fingerprint OR cells.excluded = 'error'
		RETURNING key),
	v AS (SELECT * FROM unnest(?::text[], ?::text[], ?::text[]) AS v (key, regime, record)),
	s AS (INSERT INTO scores (key, regime, record) SELECT v.key, v.regime, v.record FROM v JOIN c ON c.key = v.key
		ON CONFLICT (key, regime) DO UPDATE SET record = excluded.record),
	d AS (DELETE FROM scores WHERE key = ANY(?::text[]) AND key IN (SELECT key FROM c)
		AND NOT EXISTS (SELECT 1 FROM v WHERE v.key = scores.key AND v.regime = scores.regime)),
	r AS (DELETE FROM claims WHERE worker = ? AND key = ANY(?::text[]))
	SELECT key FROM c`

// saveCellsOneTrip stores cells (no key twice) as CellSaver.Save does, and
// releases worker's claims on them, in one statement, so one round trip
// and one commit for a group of cells: on PostgreSQL, where workers share
// the store over a network and every round trip and commit counts. The
// cells are given as arrays (one statement text for any number, prepared
// once per connection) in key order, so that two workers saving some of
// the same cells (a lease taken over) lock them in the same order. The
// parts run on one snapshot in an unspecified order, so they touch
// disjoint rows: the cells, their new scores (upserted, as an older
// attempt may have stored the same regimes), the older attempts' scores
// for other regimes, and the claims. It returns the keys stored.
func (s *sqlStore) saveCellsOneTrip(ctx context.Context, worker string, cells []CellOutcome, records [][]string) (map[string]bool, error) {
	order := make([]int, len(cells))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(cells[a].Key, cells[b].Key) })
	var (
		keys, plans, excluded, details, fingerprints []string
		doneAt                                       []int64
		scoreKeys, regimes, scoreRecords             []string
	)
	for _, i := range order {
		c := cells[i]
		keys, plans, excluded, details = append(keys, c.Key), append(plans, string(c.Plan)), append(excluded, c.Excluded), append(details, c.Detail)
		doneAt, fingerprints = append(doneAt, c.DoneAt), append(fingerprints, c.Fingerprint)
		for j, r := range c.Scores {
			scoreKeys, regimes, scoreRecords = append(scoreKeys, c.Key), append(regimes, r.Regime), append(scoreRecords, records[i][j])
		}
	}
	rows, err := s.db.QueryContext(ctx, saveCellsQuery,
		keys, plans, excluded, details, doneAt, fingerprints, scoreKeys, regimes, scoreRecords, keys, worker, keys)
	if err != nil {
		return nil, err
	}
	stored := make(map[string]bool, len(cells))
	return stored, scanKeys(rows, stored)
}

// GridSaver is who saves a grid (SaveGrid): a worker of a run at a time. Its
// zero value checks nothing.
type GridSaver struct {
	// Worker is the saving worker's name, as it claims units.
	Worker string
	// Now is when it saves, to tell live claims from expired ones.
	Now time.Time
}

// GridInUseError is SaveGrid's refusal: another worker is running the run
// store with a grid this one's differs from.
type GridInUseError struct {
	// Location is the store's (its password masked).
	Location string
	// Worker holds a live claim; Until is when its last lease ends.
	Worker string
	Until  time.Time
	// Differing counts the cells whose fingerprints differ between the two
	// grids, or that only one of them has.
	Differing int
}

// Error says who runs the store, and what to do.
func (e *GridInUseError) Error() string {
	return fmt.Sprintf("run store %s: worker %s is running it with another config (%d cells of the grid it recorded differ from this config's) and holds cells until %s at least: every worker of a run must have the same config; wait for it to finish, or give this config another run store",
		e.Location, e.Worker, e.Differing, e.Until.UTC().Format(time.RFC3339))
}

// checkGridOwner refuses a grid (fingerprints) that differs from the one
// stored while another worker than by.Worker holds a live claim.
func (s *sqlStore) checkGridOwner(ctx context.Context, tx *sqldb.Tx, stored, fingerprints map[string]string, by GridSaver) error {
	if by.Worker == "" || len(stored) == 0 {
		return nil
	}
	differing := 0
	for k, fp := range fingerprints {
		if stored[k] != fp {
			differing++
		}
	}
	for k := range stored {
		if _, ok := fingerprints[k]; !ok {
			differing++
		}
	}
	if differing == 0 {
		return nil
	}
	var (
		worker string
		until  int64
	)
	// Only claims of grid cells: a baseline's problems and the
	// budget-aware re-solves share the table, and are no other config.
	err := tx.QueryRowContext(ctx, `SELECT worker, MAX(expires_at) FROM claims WHERE worker <> ? AND expires_at > ? AND key IN (SELECT key FROM grid_cells) GROUP BY worker ORDER BY MAX(expires_at) DESC LIMIT 1`,
		by.Worker, by.Now.UnixMicro()).Scan(&worker, &until)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // no one else is running it: this run replaces the grid
	}
	if err != nil {
		return err
	}
	return &GridInUseError{Location: s.Location(), Worker: worker, Until: time.UnixMicro(until), Differing: differing}
}
