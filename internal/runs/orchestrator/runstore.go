package orchestrator

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/triage-eval/triage/internal/protocol/pools"
	"github.com/triage-eval/triage/internal/runs/report"
	"github.com/triage-eval/triage/internal/store/sqlitedsn"
)

// RunStore holds a run's manifest, plans and scores in SQLite.
type RunStore struct {
	db *sql.DB
}

const runSchema = `
CREATE TABLE IF NOT EXISTS manifest (
	id       INTEGER PRIMARY KEY CHECK (id = 1),
	config   TEXT NOT NULL,
	pools    TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS cells (
	key       TEXT PRIMARY KEY,
	plan      TEXT NOT NULL, -- the planner's response (JSON), or "" on error
	excluded  TEXT NOT NULL,
	detail    TEXT NOT NULL,
	done_at   INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS scores (
	key      TEXT NOT NULL REFERENCES cells(key),
	regime   TEXT NOT NULL,
	record   TEXT NOT NULL, -- report.ScoreRecord as JSON
	PRIMARY KEY (key, regime)
);
CREATE TABLE IF NOT EXISTS budget_aware (
	model TEXT NOT NULL, mode TEXT NOT NULL, dataset TEXT NOT NULL, problem_id TEXT NOT NULL,
	record TEXT NOT NULL, -- BudgetAwareResult as JSON
	PRIMARY KEY (model, mode, dataset, problem_id)
);
CREATE TABLE IF NOT EXISTS accuracy (
	model TEXT NOT NULL, mode TEXT NOT NULL, dataset TEXT NOT NULL,
	correct INTEGER NOT NULL, gradeable INTEGER NOT NULL,
	PRIMARY KEY (model, mode, dataset)
);`

// OpenRunStore opens (creating) the run store at path.
func OpenRunStore(ctx context.Context, path string) (*RunStore, error) {
	db, err := sql.Open("sqlite", sqlitedsn.DSN(path, sqlitedsn.Options{ImmediateTx: true}))
	if err != nil {
		return nil, fmt.Errorf("run store %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, runSchema); err != nil {
		db.Close()
		return nil, fmt.Errorf("run store %s: %w", path, err)
	}
	return &RunStore{db: db}, nil
}

// Close closes the store.
func (s *RunStore) Close() error { return s.db.Close() }

// SaveManifest records the config and pools; a resumed run must match them.
func (s *RunStore) SaveManifest(ctx context.Context, config, pools []byte) error {
	var oldConfig, oldPools string
	err := s.db.QueryRowContext(ctx, `SELECT config, pools FROM manifest WHERE id = 1`).Scan(&oldConfig, &oldPools)
	switch {
	case err == sql.ErrNoRows:
		_, err = s.db.ExecContext(ctx, `INSERT INTO manifest (id, config, pools) VALUES (1, ?, ?)`, string(config), string(pools))
		return err
	case err != nil:
		return err
	case oldPools != string(pools):
		return fmt.Errorf("this run store holds a run with a different pool partition; use a new run_store")
	}
	_, err = s.db.ExecContext(ctx, `UPDATE manifest SET config = ? WHERE id = 1`, string(config))
	return err
}

// Done returns the keys of the cells already stored.
func (s *RunStore) Done(ctx context.Context) (map[string]bool, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT key FROM cells`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	done := map[string]bool{}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, err
		}
		done[k] = true
	}
	return done, rows.Err()
}

// SaveCell stores a cell's plan and scores in one transaction.
func (s *RunStore) SaveCell(ctx context.Context, key string, plan []byte, excluded, detail string, doneAt int64, scores []report.ScoreRecord) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO cells (key, plan, excluded, detail, done_at) VALUES (?, ?, ?, ?, ?)`,
		key, string(plan), excluded, detail, doneAt); err != nil {
		return err
	}
	for _, r := range scores {
		rec, err := json.Marshal(r)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO scores (key, regime, record) VALUES (?, ?, ?)`, key, r.Regime, string(rec)); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// SaveAccuracy records a solver's base accuracy on a dataset.
func (s *RunStore) SaveAccuracy(ctx context.Context, a report.Accuracy) error {
	_, err := s.db.ExecContext(ctx, `INSERT OR REPLACE INTO accuracy (model, mode, dataset, correct, gradeable) VALUES (?, ?, ?, ?, ?)`,
		a.Model, a.Mode, a.Dataset, a.Correct, a.Gradeable)
	return err
}

// Results returns every stored score and accuracy, in key order.
func (s *RunStore) Results(ctx context.Context) ([]report.ScoreRecord, []report.Accuracy, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT record FROM scores ORDER BY key, regime`)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var recs []report.ScoreRecord
	for rows.Next() {
		var raw string
		if err := rows.Scan(&raw); err != nil {
			return nil, nil, err
		}
		var r report.ScoreRecord
		if err := json.Unmarshal([]byte(raw), &r); err != nil {
			return nil, nil, err
		}
		recs = append(recs, r)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	arows, err := s.db.QueryContext(ctx, `SELECT model, mode, dataset, correct, gradeable FROM accuracy ORDER BY model, mode, dataset`)
	if err != nil {
		return nil, nil, err
	}
	defer arows.Close()
	var accs []report.Accuracy
	for arows.Next() {
		var a report.Accuracy
		if err := arows.Scan(&a.Model, &a.Mode, &a.Dataset, &a.Correct, &a.Gradeable); err != nil {
			return nil, nil, err
		}
		accs = append(accs, a)
	}
	return recs, accs, arows.Err()
}

// Pools returns the pool partition the run recorded, by dataset.
func (s *RunStore) Pools(ctx context.Context) (map[string][]pools.Pool, error) {
	var raw string
	err := s.db.QueryRowContext(ctx, `SELECT pools FROM manifest WHERE id = 1`).Scan(&raw)
	if err == sql.ErrNoRows {
		return nil, fmt.Errorf("the run store holds no run yet (triage run first)")
	}
	if err != nil {
		return nil, err
	}
	var out map[string][]pools.Pool
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return nil, fmt.Errorf("run store manifest: %w", err)
	}
	return out, nil
}

// Plan returns the planner response stored for a cell (protojson of a
// CreatePlanResponse; empty when the planner call failed) and whether the
// cell is stored.
func (s *RunStore) Plan(ctx context.Context, key string) (plan []byte, found bool, err error) {
	var raw string
	err = s.db.QueryRowContext(ctx, `SELECT plan FROM cells WHERE key = ?`, key).Scan(&raw)
	if err == sql.ErrNoRows {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return []byte(raw), true, nil
}

// BudgetAwareResult is one budget-aware re-solve (SPEC §5).
type BudgetAwareResult struct {
	// Model, Mode, Dataset and ProblemID identify the re-solved item.
	Model     string `json:"model"`
	Mode      string `json:"mode"`
	Dataset   string `json:"dataset"`
	ProblemID string `json:"problem_id"`
	// Pool is the item's pool index.
	Pool int `json:"pool"`
	// Tokens is a_i, the allocation the α = 1 plan gave it.
	Tokens int64 `json:"tokens"`
	// BaselineCorrect is y_i from Phase 0.
	BaselineCorrect bool `json:"baseline_correct"`
	// Gradeable reports that the re-solve succeeded and was graded.
	Gradeable bool `json:"gradeable"`
	// Correct is the re-solve's grade.
	Correct bool `json:"correct"`
	// Truncated reports an output cut at the token limit.
	Truncated bool `json:"truncated,omitempty"`
	// OutputTokens is what the re-solve spent, reasoning included.
	OutputTokens int64 `json:"output_tokens"`
	// Outcome is the grading outcome, e.g. "incorrect".
	Outcome string `json:"outcome,omitempty"`
	// Error says why the re-solve is not gradeable.
	Error string `json:"error,omitempty"`
}

// SaveBudgetAware stores one re-solve, replacing an earlier one.
func (s *RunStore) SaveBudgetAware(ctx context.Context, r BudgetAwareResult) error {
	raw, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, `INSERT OR REPLACE INTO budget_aware (model, mode, dataset, problem_id, record) VALUES (?, ?, ?, ?, ?)`,
		r.Model, r.Mode, r.Dataset, r.ProblemID, string(raw))
	return err
}

// BudgetAware returns every stored re-solve in key order.
func (s *RunStore) BudgetAware(ctx context.Context) ([]BudgetAwareResult, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT record FROM budget_aware ORDER BY model, mode, dataset, problem_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []BudgetAwareResult
	for rows.Next() {
		var raw string
		if err := rows.Scan(&raw); err != nil {
			return nil, err
		}
		var r BudgetAwareResult
		if err := json.Unmarshal([]byte(raw), &r); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
