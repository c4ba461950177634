package groundtruth

import (
	"context"
	"fmt"
	"iter"

	"github.com/jackc/pgx/v5"
)

// pgCopyRows is how many records are buffered per COPY into the staging
// table; memory holds one chunk.
const pgCopyRows = 5000

// pgImportWorkMem is the server's work_mem for the import transaction, so
// the merge's sort of a large import stays in memory.
const pgImportWorkMem = "64MB"

// Import implements Store. In one transaction, records stream into a
// temporary staging table by COPY in chunks of pgCopyRows, then a single
// statement (pgMergeSQL) counts and merges them into ground_truth, and,
// when the import has any, one more merges the further samples into
// ground_truth_samples (their keys never meet the ground truth's). See
// pgMergeSQL for how Inserted and Updated are computed; Unchanged is the
// rest of Received. A key repeated in one import ends with its last record.
func (s *pgStore) Import(ctx context.Context, records iter.Seq2[Record, error]) (ImportStats, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return ImportStats{}, importErr(ctx, fmt.Errorf("store: import into %s: begin: %w", s.location, err))
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	// The merge sorts the staging table; let it do so in memory.
	if _, err := tx.Exec(ctx, "SET LOCAL work_mem = '"+pgImportWorkMem+"'"); err != nil {
		return ImportStats{}, importErr(ctx, fmt.Errorf("store: import into %s: %w", s.location, err))
	}
	if _, err := tx.Exec(ctx, pgCreateStagingSQL); err != nil {
		return ImportStats{}, importErr(ctx, fmt.Errorf("store: import into %s: create staging table: %w", s.location, err))
	}
	c := &pgCopier{ctx: ctx, tx: tx, vals: make([]any, 0, pgCopyRows*len(pgStagingColumns))}
	n, err := eachRecord(ctx, records, c.add)
	if err == nil {
		err = c.flush()
	}
	if err != nil {
		return ImportStats{}, importErr(ctx, err)
	}
	if _, err := tx.Exec(ctx, "ANALYZE "+pgStagingTable); err != nil {
		return ImportStats{}, importErr(ctx, fmt.Errorf("store: import into %s: analyze staging table: %w", s.location, err))
	}
	// Merges of one schema take turns (until commit), so each sees the
	// others' rows and the counts stay exact under concurrent imports.
	if _, err := tx.Exec(ctx, pgImportLockSQL); err != nil {
		return ImportStats{}, importErr(ctx, fmt.Errorf("store: import into %s: lock: %w", s.location, err))
	}
	var st ImportStats
	if err := tx.QueryRow(ctx, pgMergeGroundTruthSQL).Scan(&st.Inserted, &st.Updated); err != nil {
		return ImportStats{}, importErr(ctx, fmt.Errorf("store: import into %s: merge: %w", s.location, err))
	}
	if c.samples > 0 {
		var inserted, updated int64
		if err := tx.QueryRow(ctx, pgMergeSamplesSQL).Scan(&inserted, &updated); err != nil {
			return ImportStats{}, importErr(ctx, fmt.Errorf("store: import into %s: merge samples: %w", s.location, err))
		}
		st.Inserted, st.Updated = st.Inserted+inserted, st.Updated+updated
	}
	if err := tx.Commit(ctx); err != nil {
		return ImportStats{}, importErr(ctx, fmt.Errorf("store: import into %s: commit: %w", s.location, err))
	}
	st.Received = n
	st.Unchanged = n - st.Inserted - st.Updated
	return st, nil
}

// pgCopier buffers records and copies them into the staging table.
type pgCopier struct {
	ctx  context.Context
	tx   pgx.Tx
	vals []any // len(pgStagingColumns) values a row
	seq  int64
	// samples counts the records of samples 2.. .
	samples int64
}

// add buffers r (validated and normalized) and copies a full chunk.
func (c *pgCopier) add(r Record) error {
	if err := pgCheckText(r); err != nil {
		return fmt.Errorf("store: import: records[%d]: %w", c.seq, err)
	}
	c.vals = append(c.vals, c.seq, r.Solver.Model, r.Solver.Mode, r.Dataset, r.ProblemID,
		r.Cost, r.Correct, r.Gradeable, r.FinishReason,
		r.Latency.Microseconds(), r.ResponseSHA256, r.Error, r.MeasuredAt, r.LuckyGuess, string(r.CostRule), r.Source, r.ProblemSHA256, int32(r.Sample))
	c.seq++
	if r.Sample >= 2 {
		c.samples++
	}
	if len(c.vals) == cap(c.vals) {
		return c.flush()
	}
	return nil
}

// flush copies the buffered rows, if any.
func (c *pgCopier) flush() error {
	w := len(pgStagingColumns)
	rows := len(c.vals) / w
	if rows == 0 {
		return nil
	}
	_, err := c.tx.CopyFrom(c.ctx, pgx.Identifier{pgStagingTable}, pgStagingColumns,
		pgx.CopyFromSlice(rows, func(i int) ([]any, error) { return c.vals[i*w : (i+1)*w], nil }))
	if err != nil {
		return fmt.Errorf("store: import: copy into staging table: %w", err)
	}
	clear(c.vals)
	c.vals = c.vals[:0]
	return nil
}
