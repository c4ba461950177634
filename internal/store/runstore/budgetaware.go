package runstore

import (
	"context"
	"encoding/json"

	"github.com/triage-eval/triage/internal/platform/version"
	"github.com/triage-eval/triage/internal/protocol/costrule"
)

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
	// Truncated reports an output cut at the token limit (finish reason
	// "length").
	Truncated bool `json:"truncated,omitempty"`
	// MaxTokens is the request's output token limit (the endpoint's
	// max_output_tokens), 0 when none was sent: a re-solve with Tokens ≥
	// MaxTokens cannot break its allocation (SPEC §5 compliance).
	MaxTokens int64 `json:"max_tokens,omitempty"`
	// LuckyGuess records that the grader accepted the answer to an
	// unsolvable problem; Correct stays false (SPEC §1).
	LuckyGuess bool `json:"lucky_guess,omitempty"`
	// Fingerprint is the hex SHA-256 of the re-solve's inputs: the α = 1
	// plan's cell, the allocation, the problem, the prompts and the
	// endpoint settings (SPEC §5 freshness).
	Fingerprint string `json:"fingerprint,omitempty"`
	// OutputTokens is what the re-solve spent, reasoning included, and
	// OutputTokensRule the SPEC §1 rule that counted it; absent when the
	// call failed, or in results stored before rules were recorded.
	OutputTokens     int64         `json:"output_tokens"`
	OutputTokensRule costrule.Rule `json:"output_tokens_rule,omitempty"`
	// Outcome is the grading outcome, e.g. "incorrect".
	Outcome string `json:"outcome,omitempty"`
	// Error says why the re-solve is not gradeable.
	Error string `json:"error,omitempty"`
	// Version is what computed the result (SPEC §10): the protocol, the
	// revision of its specification and the build that stored it; nil in a
	// result stored before results carried it.
	Version *version.Stamp `json:"version,omitempty"`
}

// SaveBudgetAware implements Store.
func (s *sqlStore) SaveBudgetAware(ctx context.Context, r BudgetAwareResult) error {
	return retryErr(ctx, s, "saving a re-solve", func() error {
		raw, err := json.Marshal(r)
		if err != nil {
			return err
		}
		_, err = s.db.ExecContext(ctx, `INSERT INTO budget_aware (model, mode, dataset, problem_id, record) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (model, mode, dataset, problem_id) DO UPDATE SET record = excluded.record`,
			r.Model, r.Mode, r.Dataset, r.ProblemID, string(raw))
		return err
	})
}

// BudgetAwareKey identifies one re-solve.
type BudgetAwareKey struct {
	Model, Mode, Dataset, ProblemID string
}

// SaveBudgetAwareGrid implements Store.
func (s *sqlStore) SaveBudgetAwareGrid(ctx context.Context, fingerprints map[BudgetAwareKey]string) error {
	return retryErr(ctx, s, "saving the re-solves selected", func() error {
		tx, err := s.db.BeginTx(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if err := s.serialize(ctx, tx, "budget-aware-grid"); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT model, mode, dataset, problem_id FROM budget_aware_grid`)
		if err != nil {
			return err
		}
		var drop []BudgetAwareKey
		for rows.Next() {
			var k BudgetAwareKey
			if err := rows.Scan(&k.Model, &k.Mode, &k.Dataset, &k.ProblemID); err != nil {
				rows.Close()
				return err
			}
			if _, keep := fingerprints[k]; !keep {
				drop = append(drop, k)
			}
		}
		if err := rows.Close(); err != nil {
			return err
		}
		for _, k := range drop {
			if _, err := tx.ExecContext(ctx, `DELETE FROM budget_aware_grid WHERE model = ? AND mode = ? AND dataset = ? AND problem_id = ?`,
				k.Model, k.Mode, k.Dataset, k.ProblemID); err != nil {
				return err
			}
		}
		// Upserted, never deleted and inserted again: workers of one run save
		// the same selection concurrently.
		for k, fp := range fingerprints {
			if _, err := tx.ExecContext(ctx, `INSERT INTO budget_aware_grid (model, mode, dataset, problem_id, fingerprint) VALUES (?, ?, ?, ?, ?)
				ON CONFLICT (model, mode, dataset, problem_id) DO UPDATE SET fingerprint = excluded.fingerprint`,
				k.Model, k.Mode, k.Dataset, k.ProblemID, fp); err != nil {
				return err
			}
		}
		return tx.Commit()
	})
}

// BudgetAware implements Store.
func (s *sqlStore) BudgetAware(ctx context.Context) ([]BudgetAwareResult, Freshness, error) {
	var f Freshness
	want, err := retry(ctx, s, "reading the re-solves selected", func() (map[BudgetAwareKey]string, error) {
		want := map[BudgetAwareKey]string{}
		grows, err := s.db.QueryContext(ctx, `SELECT model, mode, dataset, problem_id, fingerprint FROM budget_aware_grid`)
		if err != nil {
			return nil, err
		}
		defer grows.Close()
		for grows.Next() {
			var k BudgetAwareKey
			var fp string
			if err := grows.Scan(&k.Model, &k.Mode, &k.Dataset, &k.ProblemID, &fp); err != nil {
				return nil, err
			}
			want[k] = fp
		}
		return want, grows.Err()
	})
	if err != nil {
		return nil, f, err
	}
	f.Unchecked = len(want) == 0
	all, err := s.AllBudgetAware(ctx)
	if err != nil {
		return nil, f, err
	}
	var out []BudgetAwareResult
	seen := 0
	for _, r := range all {
		fp, selected := want[BudgetAwareKey{r.Model, r.Mode, r.Dataset, r.ProblemID}]
		switch {
		case f.Unchecked:
		case !selected:
			f.Outside++
			continue
		case fp != r.Fingerprint:
			f.Stale++
			seen++
			continue
		default:
			f.Fresh++
			seen++
		}
		out = append(out, r)
	}
	if !f.Unchecked {
		f.Pending = len(want) - seen
	}
	return out, f, nil
}

// AllBudgetAware implements Store.
func (s *sqlStore) AllBudgetAware(ctx context.Context) ([]BudgetAwareResult, error) {
	return retry(ctx, s, "reading the re-solves", func() ([]BudgetAwareResult, error) {
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
	})
}
