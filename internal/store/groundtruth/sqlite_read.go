package groundtruth

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// getChunk bounds the ids of one Get statement.
const getChunk = 500

// Get implements Store.
func (s *sqliteStore) Get(ctx context.Context, solver Solver, dataset string, problemIDs []string) (map[string]Record, error) {
	out := make(map[string]Record, len(problemIDs))
	for start := 0; start < len(problemIDs); start += getChunk {
		ids := problemIDs[start:min(start+getChunk, len(problemIDs))]
		args := make([]any, 0, 3+len(ids))
		args = append(args, solver.Model, solver.Mode, dataset)
		for _, id := range ids {
			args = append(args, id)
		}
		query := "SELECT " + selectColumns + " FROM ground_truth WHERE model = ? AND mode = ? AND dataset = ? AND problem_id IN (" +
			strings.TrimSuffix(strings.Repeat("?, ", len(ids)), ", ") + ")"
		err := s.query(ctx, query, args, false, func(r Record) { out[r.ProblemID] = r })
		if err != nil {
			return nil, fmt.Errorf("store: get from %s: %w", s.location, err)
		}
	}
	return out, nil
}

// GetSamples implements Store.
func (s *sqliteStore) GetSamples(ctx context.Context, solver Solver, dataset string, problemIDs []string) (map[string][]Record, error) {
	out := make(map[string][]Record, len(problemIDs))
	from, columns := source(true)
	for start := 0; start < len(problemIDs); start += getChunk {
		ids := problemIDs[start:min(start+getChunk, len(problemIDs))]
		args := make([]any, 0, 3+len(ids))
		args = append(args, solver.Model, solver.Mode, dataset)
		for _, id := range ids {
			args = append(args, id)
		}
		query := "SELECT " + columns + " FROM " + from + " WHERE model = ? AND mode = ? AND dataset = ? AND problem_id IN (" +
			strings.TrimSuffix(strings.Repeat("?, ", len(ids)), ", ") + ") ORDER BY problem_id, sample"
		err := s.query(ctx, query, args, true, func(r Record) { groupSamples(out, r) })
		if err != nil {
			return nil, fmt.Errorf("store: get samples from %s: %w", s.location, err)
		}
	}
	return out, nil
}

// HasSolver implements Store.
func (s *sqliteStore) HasSolver(ctx context.Context, solver Solver) (bool, error) {
	var has bool
	err := s.r.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM ground_truth WHERE model = ? AND mode = ?)`,
		solver.Model, solver.Mode).Scan(&has)
	if err != nil {
		return false, fmt.Errorf("store: has solver in %s: %w", s.location, err)
	}
	return has, nil
}

// List implements Store.
func (s *sqliteStore) List(ctx context.Context, q ListQuery) (Page, error) {
	size, err := pageSize(q)
	if err != nil {
		return Page{}, err
	}
	after, err := decodePageToken(q)
	if err != nil {
		return Page{}, err
	}
	query, args := listQuerySQL(q, after, size+1, func(int) string { return "?" })
	records := make([]Record, 0, min(size+1, 64))
	if err := s.query(ctx, query, args, q.AllSamples, func(r Record) { records = append(records, r) }); err != nil {
		return Page{}, fmt.Errorf("store: list %s: %w", s.location, err)
	}
	return finishPage(q, size, records), nil
}

// query runs a select of selectColumns (then sample, when withSample) on
// the read pool and passes each record to fn.
func (s *sqliteStore) query(ctx context.Context, query string, args []any, withSample bool, fn func(Record)) error {
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		r, err := scanSQLiteRecord(rows, withSample)
		if err != nil {
			return err
		}
		fn(r)
	}
	return rows.Err()
}

// scanSQLiteRecord reads one row of selectColumns, then the sample when
// withSample.
func scanSQLiteRecord(rows *sql.Rows, withSample bool) (Record, error) {
	var r Record
	var correct, gradeable, latencyUS, measuredUS, lucky int64
	dest := []any{&r.Solver.Model, &r.Solver.Mode, &r.Dataset, &r.ProblemID,
		&r.Cost, &correct, &gradeable, &r.FinishReason,
		&latencyUS, &r.ResponseSHA256, &r.Error, &measuredUS, &lucky, &r.CostRule, &r.Source, &r.ProblemSHA256}
	if withSample {
		dest = append(dest, &r.Sample)
	}
	err := rows.Scan(dest...)
	if err != nil {
		return Record{}, err
	}
	r.Correct, r.Gradeable, r.LuckyGuess = correct != 0, gradeable != 0, lucky != 0
	r.Latency = time.Duration(latencyUS) * time.Microsecond
	r.MeasuredAt = fromUnixMicro(measuredUS)
	return r, nil
}
