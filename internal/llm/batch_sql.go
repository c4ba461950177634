package llm

import (
	"context"
	"fmt"
	"time"
)

// SaveBatch implements BatchStore: the batch and its keys in one
// transaction, state "pending".
func (c *SQLCache) SaveBatch(ctx context.Context, b StoredBatch) (err error) {
	tx, err := c.db.BeginTx(ctx)
	if err != nil {
		return fmt.Errorf("llm cache: save batch %s: %w", b.ID, err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback() // the statement's error is the one to report
		}
	}()
	if _, err = tx.ExecContext(ctx,
		`INSERT INTO llm_batches (id, base_url, created_at, state) VALUES (?, ?, ?, ?)`,
		b.ID, b.BaseURL, b.CreatedAt.UTC().Format(time.RFC3339Nano), batchPending); err != nil {
		return fmt.Errorf("llm cache: save batch %s: %w", b.ID, err)
	}
	for _, k := range b.Keys {
		if _, err = tx.ExecContext(ctx,
			`INSERT INTO llm_batch_items (batch_id, key, reported) VALUES (?, ?, 0) ON CONFLICT (batch_id, key) DO NOTHING`, b.ID, k); err != nil {
			return fmt.Errorf("llm cache: save batch %s: %w", b.ID, err)
		}
	}
	if err = tx.Commit(); err != nil {
		return fmt.Errorf("llm cache: save batch %s: %w", b.ID, err)
	}
	return nil
}

// PendingBatches implements BatchStore, oldest first.
func (c *SQLCache) PendingBatches(ctx context.Context, baseURL string) ([]StoredBatch, error) {
	rows, err := c.db.QueryContext(ctx,
		`SELECT b.id, b.created_at, i.key FROM llm_batches b JOIN llm_batch_items i ON i.batch_id = b.id
		 WHERE b.base_url = ? AND b.state = ? ORDER BY b.created_at, b.id, i.key`, baseURL, batchPending)
	if err != nil {
		return nil, fmt.Errorf("llm cache: pending batches: %w", err)
	}
	defer rows.Close()
	var out []StoredBatch
	for rows.Next() {
		var id, created, key string
		if err := rows.Scan(&id, &created, &key); err != nil {
			return nil, fmt.Errorf("llm cache: pending batches: %w", err)
		}
		if len(out) == 0 || out[len(out)-1].ID != id {
			at, err := time.Parse(time.RFC3339Nano, created)
			if err != nil {
				return nil, fmt.Errorf("llm cache: batch %s: created_at %q: %w", id, created, err)
			}
			out = append(out, StoredBatch{ID: id, BaseURL: baseURL, CreatedAt: at})
		}
		last := &out[len(out)-1]
		last.Keys = append(last.Keys, key)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("llm cache: pending batches: %w", err)
	}
	return out, nil
}

// FinishBatch implements BatchStore.
func (c *SQLCache) FinishBatch(ctx context.Context, id, state string, at time.Time) error {
	if _, err := c.db.ExecContext(ctx, `UPDATE llm_batches SET state = ?, done_at = ? WHERE id = ?`,
		state, at.UTC().Format(time.RFC3339Nano), id); err != nil {
		return fmt.Errorf("llm cache: finish batch %s: %w", id, err)
	}
	return nil
}

// UnreportedAnswers implements BatchStore: the keys of finished batches
// of baseURL not yet marked reported, each with its batches.
func (c *SQLCache) UnreportedAnswers(ctx context.Context, baseURL string) (map[string][]string, error) {
	rows, err := c.db.QueryContext(ctx,
		`SELECT i.key, i.batch_id FROM llm_batch_items i JOIN llm_batches b ON b.id = i.batch_id
		 WHERE i.reported = 0 AND b.base_url = ? AND b.state <> ? ORDER BY i.key, i.batch_id`, baseURL, batchPending)
	if err != nil {
		return nil, fmt.Errorf("llm cache: unreported batch answers: %w", err)
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var key, id string
		if err := rows.Scan(&key, &id); err != nil {
			return nil, fmt.Errorf("llm cache: unreported batch answers: %w", err)
		}
		out[key] = append(out[key], id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("llm cache: unreported batch answers: %w", err)
	}
	return out, nil
}

// MarkReported implements BatchStore.
func (c *SQLCache) MarkReported(ctx context.Context, key string) error {
	if _, err := c.db.ExecContext(ctx, `UPDATE llm_batch_items SET reported = 1 WHERE key = ? AND reported = 0`, key); err != nil {
		return fmt.Errorf("llm cache: mark a batch answer reported: %w", err)
	}
	return nil
}
