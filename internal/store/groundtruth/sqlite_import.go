package groundtruth

import (
	"context"
	"database/sql"
	"fmt"
	"iter"
)

// Import implements Store. Records stream into multi-row upserts of
// sqliteBatchRows rows inside one IMMEDIATE transaction; memory holds one
// batch. Counting, per batch: Inserted grows by the batch's distinct keys
// minus those already stored (one indexed count before the upsert); the
// upsert's rows affected are inserted plus updated rows, since an identical
// row is left alone; the rest of the batch is Unchanged. Records are applied
// in order, so a key repeated in one import ends with its last record, the
// first occurrence of a new key counts as Inserted and each later one as
// Updated or Unchanged against the one before it. The ground truth and the
// further samples (Record.Sample ≥ 2) batch separately, one batch per
// table: their keys never meet, so the order between them does not matter.
func (s *sqliteStore) Import(ctx context.Context, records iter.Seq2[Record, error]) (ImportStats, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return ImportStats{}, importErr(ctx, fmt.Errorf("store: import into %s: begin: %w", s.location, err))
	}
	defer tx.Rollback()
	gt := newSQLiteBatch(ctx, tx, groundTruthTable, s.gt)
	var samples *sqliteBatch // made on the first sample: most imports have none
	n, err := eachRecord(ctx, records, func(r Record) error {
		if r.Sample < 2 {
			return gt.add(r)
		}
		if samples == nil {
			samples = newSQLiteBatch(ctx, tx, samplesTable, s.samples)
		}
		return samples.add(r)
	})
	if err == nil {
		err = gt.flush()
	}
	if err == nil && samples != nil {
		err = samples.flush()
	}
	if err != nil {
		return ImportStats{}, importErr(ctx, err)
	}
	if err := tx.Commit(); err != nil {
		return ImportStats{}, importErr(ctx, fmt.Errorf("store: import into %s: commit: %w", s.location, err))
	}
	inserted, changed := gt.inserted, gt.changed
	if samples != nil {
		inserted, changed = inserted+samples.inserted, changed+samples.changed
	}
	return ImportStats{Received: n, Inserted: inserted, Updated: changed - inserted, Unchanged: n - changed}, nil
}

// newSQLiteBatch starts an empty batch of t's rows in tx, with st, t's
// prepared statements.
func newSQLiteBatch(ctx context.Context, tx *sql.Tx, t table, st sqliteStmts) *sqliteBatch {
	b := &sqliteBatch{
		ctx:    ctx,
		tx:     tx,
		t:      t,
		upsert: tx.StmtContext(ctx, st.upsert),
		exists: tx.StmtContext(ctx, st.exists),
		args:   make([]any, 0, sqliteBatchRows*len(t.columns)),
		keys:   make([]any, 0, sqliteBatchRows*t.keyWidth),
		seen:   make(map[cursor]struct{}, sqliteBatchRows),
	}
	if st.existsInGroup != nil {
		b.existsInGroup = tx.StmtContext(ctx, st.existsInGroup)
		b.ids = make([]any, 0, 3+sqliteBatchRows)
	}
	return b
}

// sqliteBatch accumulates up to sqliteBatchRows records of one table and
// writes them with one existence count and one upsert.
type sqliteBatch struct {
	ctx context.Context
	tx  *sql.Tx
	t   table
	// Statements for a full batch; a final, shorter batch uses ad hoc ones.
	// existsInGroup is nil for a table keyed beyond the problem id.
	upsert, exists, existsInGroup *sql.Stmt

	args []any // len(t.columns) values a row
	keys []any // t.keyWidth key values a row
	ids  []any // scratch: model, mode, dataset, then each problem id
	seen map[cursor]struct{}
	rows int
	// inGroup reports whether every row so far shares model, mode and
	// dataset with the first.
	inGroup bool
	first   Key

	// inserted counts new keys; changed counts rows inserted or updated.
	inserted, changed int64
}

// add appends r (validated and normalized) and writes a full batch.
func (b *sqliteBatch) add(r Record) error {
	model, mode, dataset, id := any(r.Solver.Model), any(r.Solver.Mode), any(r.Dataset), any(r.ProblemID)
	b.args = append(b.args, model, mode, dataset, id,
		r.Cost, boolInt(r.Correct), boolInt(r.Gradeable), r.FinishReason,
		r.Latency.Microseconds(), r.ResponseSHA256, r.Error, r.MeasuredAt.UnixMicro(),
		boolInt(r.LuckyGuess), string(r.CostRule), r.Source, r.ProblemSHA256)
	b.keys = append(b.keys, model, mode, dataset, id)
	if b.t.keyWidth == 5 {
		b.args = append(b.args, int64(r.Sample))
		b.keys = append(b.keys, int64(r.Sample))
	}
	b.seen[cursor{r.Key, r.Sample}] = struct{}{}
	if b.rows == 0 {
		b.inGroup, b.first = b.existsInGroup != nil, r.Key
	} else if b.inGroup && (r.Solver != b.first.Solver || r.Dataset != b.first.Dataset) {
		b.inGroup = false
	}
	b.rows++
	if b.rows == sqliteBatchRows {
		return b.flush()
	}
	return nil
}

// flush writes the pending rows, if any.
func (b *sqliteBatch) flush() error {
	if b.rows == 0 {
		return nil
	}
	existing, err := b.countExisting()
	if err != nil {
		return fmt.Errorf("store: import: check existing keys: %w", err)
	}
	var res sql.Result
	if b.rows == sqliteBatchRows {
		res, err = b.upsert.ExecContext(b.ctx, b.args...)
	} else {
		res, err = b.tx.ExecContext(b.ctx, sqliteUpsertSQL(b.t, b.rows), b.args...)
	}
	if err != nil {
		return fmt.Errorf("store: import: upsert: %w", err)
	}
	affected, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("store: import: rows affected: %w", err)
	}
	b.inserted += int64(len(b.seen)) - existing
	b.changed += affected
	clear(b.args)
	clear(b.keys)
	b.args, b.keys, b.rows = b.args[:0], b.keys[:0], 0
	clear(b.seen)
	return nil
}

// countExisting counts the stored rows among the batch's keys (each once).
func (b *sqliteBatch) countExisting() (int64, error) {
	full := b.rows == sqliteBatchRows
	var row *sql.Row
	switch {
	case b.inGroup:
		b.ids = append(b.ids[:0], b.keys[:3]...)
		for i := 3; i < len(b.keys); i += 4 {
			b.ids = append(b.ids, b.keys[i])
		}
		if full {
			row = b.existsInGroup.QueryRowContext(b.ctx, b.ids...)
		} else {
			row = b.tx.QueryRowContext(b.ctx, sqliteExistsInGroupSQL(b.rows), b.ids...)
		}
	case full:
		row = b.exists.QueryRowContext(b.ctx, b.keys...)
	default:
		row = b.tx.QueryRowContext(b.ctx, sqliteExistsSQL(b.t, b.rows), b.keys...)
	}
	var n int64
	err := row.Scan(&n)
	clear(b.ids)
	return n, err
}

// boolInt encodes a bool as SQLite's 0 or 1.
func boolInt(v bool) int64 {
	if v {
		return 1
	}
	return 0
}
