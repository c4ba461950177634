package groundtruth

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/triage-eval/triage/internal/platform/apperr"
)

// Get implements Store. The ids travel as one array parameter, so there is
// no placeholder limit to chunk around.
func (s *pgStore) Get(ctx context.Context, solver Solver, dataset string, problemIDs []string) (map[string]Record, error) {
	out := make(map[string]Record, len(problemIDs))
	if !pgStorable(solver.Model, solver.Mode, dataset) {
		return out, nil
	}
	ids := pgStorableIDs(problemIDs)
	if len(ids) == 0 {
		return out, nil
	}
	err := s.query(ctx, "SELECT "+selectColumns+" FROM ground_truth WHERE model = $1 AND mode = $2 AND dataset = $3 AND problem_id = ANY($4)",
		[]any{solver.Model, solver.Mode, dataset, ids}, false, func(r Record) { out[r.ProblemID] = r })
	if err != nil {
		return nil, fmt.Errorf("store: get from %s: %w", s.location, err)
	}
	return out, nil
}

// pgStorableIDs keeps the ids PostgreSQL can hold (pgStorable): no other
// id can be stored, so none is looked up.
func pgStorableIDs(problemIDs []string) []string {
	ids := make([]string, 0, len(problemIDs))
	for _, id := range problemIDs {
		if pgStorable(id) {
			ids = append(ids, id)
		}
	}
	return ids
}

// GetSamples implements Store.
func (s *pgStore) GetSamples(ctx context.Context, solver Solver, dataset string, problemIDs []string) (map[string][]Record, error) {
	out := make(map[string][]Record, len(problemIDs))
	if !pgStorable(solver.Model, solver.Mode, dataset) {
		return out, nil
	}
	ids := pgStorableIDs(problemIDs)
	if len(ids) == 0 {
		return out, nil
	}
	from, columns := source(true)
	err := s.query(ctx, "SELECT "+columns+" FROM "+from+" WHERE model = $1 AND mode = $2 AND dataset = $3 AND problem_id = ANY($4) ORDER BY problem_id, sample",
		[]any{solver.Model, solver.Mode, dataset, ids}, true, func(r Record) { groupSamples(out, r) })
	if err != nil {
		return nil, fmt.Errorf("store: get samples from %s: %w", s.location, err)
	}
	return out, nil
}

// HasSolver implements Store.
func (s *pgStore) HasSolver(ctx context.Context, solver Solver) (bool, error) {
	if !pgStorable(solver.Model, solver.Mode) {
		return false, nil
	}
	var has bool
	err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM ground_truth WHERE model = $1 AND mode = $2)`,
		solver.Model, solver.Mode).Scan(&has)
	if err != nil {
		return false, fmt.Errorf("store: has solver in %s: %w", s.location, err)
	}
	return has, nil
}

// List implements Store.
func (s *pgStore) List(ctx context.Context, q ListQuery) (Page, error) {
	size, err := pageSize(q)
	if err != nil {
		return Page{}, err
	}
	after, err := decodePageToken(q)
	if err != nil {
		return Page{}, err
	}
	if (q.Solver != nil && !pgStorable(q.Solver.Model, q.Solver.Mode)) || !pgStorable(q.Dataset) {
		return Page{}, nil // no stored row can match
	}
	if after != nil && !pgStorable(after.Solver.Model, after.Solver.Mode, after.Dataset, after.ProblemID) {
		return Page{}, fmt.Errorf("store: list: %w: %w", ErrInvalidPageToken, apperr.Invalid("page_token", "not a token issued by List"))
	}
	query, args := listQuerySQL(q, after, size+1, func(n int) string { return "$" + strconv.Itoa(n) })
	records := make([]Record, 0, min(size+1, 64))
	if err := s.query(ctx, query, args, q.AllSamples, func(r Record) { records = append(records, r) }); err != nil {
		return Page{}, fmt.Errorf("store: list %s: %w", s.location, err)
	}
	return finishPage(q, size, records), nil
}

// query runs a select of selectColumns (then sample, when withSample) and
// passes each record to fn.
func (s *pgStore) query(ctx context.Context, query string, args []any, withSample bool, fn func(Record)) error {
	rows, err := s.pool.Query(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		r, err := scanPgRecord(rows, withSample)
		if err != nil {
			return err
		}
		fn(r)
	}
	return rows.Err()
}

// scanPgRecord reads one row of selectColumns, then the sample when
// withSample.
func scanPgRecord(rows pgx.Rows, withSample bool) (Record, error) {
	var r Record
	var latencyUS int64
	var sample int32
	dest := []any{&r.Solver.Model, &r.Solver.Mode, &r.Dataset, &r.ProblemID,
		&r.Cost, &r.Correct, &r.Gradeable, &r.FinishReason,
		&latencyUS, &r.ResponseSHA256, &r.Error, &r.MeasuredAt, &r.LuckyGuess, &r.CostRule, &r.Source, &r.ProblemSHA256}
	if withSample {
		dest = append(dest, &sample)
	}
	err := rows.Scan(dest...)
	r.Sample = int(sample)
	if err != nil {
		return Record{}, err
	}
	r.Latency = time.Duration(latencyUS) * time.Microsecond
	r.MeasuredAt = r.MeasuredAt.UTC()
	return r, nil
}
