package runstore

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/triage-eval/triage/internal/protocol/pools"
)

// ExcludedStale is the exclusion reason Results gives the records of a cell
// whose inputs changed after it was computed (SPEC §5 freshness).
const ExcludedStale = "stale"

// Results is what a report is built from.
type Results struct {
	// Records are the score records of the latest grid's cells, in key
	// order; those of stale cells are marked Excluded = ExcludedStale.
	Records []ScoreRecord
	// Accuracy is the latest grid's base accuracy per (solver, dataset).
	Accuracy []Accuracy
	// Freshness says how the stored cells compare with the latest grid.
	Freshness Freshness
}

// Freshness counts the stored cells by how they relate to the latest grid.
type Freshness struct {
	// Fresh cells were computed from the inputs the latest grid has.
	Fresh int
	// Stale cells were computed from other inputs and not recomputed since
	// (the latest run was stopped, or is still going): their records are
	// excluded from every mean.
	Stale int
	// Pending cells of the grid are not stored yet.
	Pending int
	// Outside counts stored cells that the latest grid no longer has (the
	// config changed): left out of the report.
	Outside int
	// Unchecked is set for a run store last run before fingerprints
	// existed: nothing can be checked, every stored record is reported.
	Unchecked bool
}

// Current is the grid as it would be laid out now (Store.ResultsAgainst).
type Current struct {
	// Grid holds each cell's fingerprint by key.
	Grid map[string]string
	// Accuracy is the base accuracy per (solver, dataset).
	Accuracy []Accuracy
}

// Results implements Store.
func (s *sqlStore) Results(ctx context.Context) (Results, error) {
	return s.results(ctx, nil)
}

// ResultsAgainst implements Store.
func (s *sqlStore) ResultsAgainst(ctx context.Context, current Current) (Results, error) {
	return s.results(ctx, &current)
}

// results is Results against current, or against the grid the last run
// saved when current is nil.
func (s *sqlStore) results(ctx context.Context, current *Current) (Results, error) {
	return retry(ctx, s, "reading the results", func() (Results, error) {
		var res Results
		var grid map[string]string
		var err error
		if current != nil {
			grid = current.Grid
		} else if grid, err = pairsOf(ctx, s.db, `SELECT key, fingerprint FROM grid_cells`); err != nil {
			return res, err
		}
		// A run store last run before fingerprints existed saved no grid;
		// today's grid, even an empty one, checks every cell.
		res.Freshness.Unchecked = current == nil && len(grid) == 0
		cells, err := s.Cells(ctx)
		if err != nil {
			return res, err
		}
		status := map[string]string{} // key → "fresh", "stale" or "outside"
		for k, c := range cells {
			want, inGrid := grid[k]
			switch {
			case res.Freshness.Unchecked:
				status[k] = "fresh"
			case !inGrid:
				status[k] = "outside"
				res.Freshness.Outside++
			case c.Fingerprint != want:
				status[k] = "stale"
				res.Freshness.Stale++
			default:
				status[k] = "fresh"
				res.Freshness.Fresh++
			}
		}
		for k := range grid {
			if _, ok := cells[k]; !ok {
				res.Freshness.Pending++
			}
		}
		srows, err := s.db.QueryContext(ctx, `SELECT key, record FROM scores ORDER BY key, regime`)
		if err != nil {
			return res, err
		}
		defer srows.Close()
		for srows.Next() {
			var key, raw string
			if err := srows.Scan(&key, &raw); err != nil {
				return res, err
			}
			var r ScoreRecord
			if err := json.Unmarshal([]byte(raw), &r); err != nil {
				return res, err
			}
			switch status[key] {
			case "outside":
				continue
			case "stale":
				r.Excluded, r.Detail, r.Eta = ExcludedStale, "its inputs changed after it was computed; run the config again to recompute it", nil
			}
			res.Records = append(res.Records, r)
		}
		if err := srows.Err(); err != nil {
			return res, err
		}
		if current != nil {
			res.Accuracy = slices.Clone(current.Accuracy)
			slices.SortFunc(res.Accuracy, func(a, b Accuracy) int {
				return cmp.Or(cmp.Compare(a.Model, b.Model), cmp.Compare(a.Mode, b.Mode), cmp.Compare(a.Dataset, b.Dataset))
			})
			return res, nil
		}
		res.Accuracy, err = accuracyRows(ctx, s.db)
		return res, err
	})
}

// Manifest is what a run records of its pools: the partition of every
// dataset it planned, and every injected pool (the same for every solver).
type Manifest struct {
	// Partitions are the pools by dataset.
	Partitions map[string][]pools.Pool `json:"partitions"`
	// Injected are the pools of the injection experiments, by base
	// dataset, source, pool and ratio.
	Injected []InjectedPool `json:"injected,omitempty"`
	// Config is the run's config as the run recorded it beside the pools
	// (JSON of the orchestrator's Config); not part of the pools' JSON.
	Config []byte `json:"-"`
}

// InjectedPool is one pool of an unsolvable-injection experiment, as the
// run's manifest records it: the same for every solver.
type InjectedPool struct {
	// Base and Source name the datasets; Ratio is r.
	Base   string  `json:"base"`
	Source string  `json:"source"`
	Ratio  float64 `json:"ratio"`
	// Index is the base pool's index in its partition.
	Index int `json:"index"`
	// ProblemIDs are the pool's problems in pool order; Injected marks the
	// positions holding a Source problem.
	ProblemIDs []string `json:"problem_ids"`
	Injected   []bool   `json:"injected"`
	// Seed and Algorithm say how the composition was drawn.
	Seed      uint64 `json:"seed"`
	Algorithm string `json:"algorithm"`
}

// ErrNoRun says the run store holds no run yet: no grid was laid out.
var ErrNoRun = errors.New("the run store holds no run yet (triage run first)")

// Manifest implements Store.
func (s *sqlStore) Manifest(ctx context.Context) (Manifest, error) {
	return retry(ctx, s, "reading the manifest", func() (Manifest, error) {
		var config, raw string
		err := s.db.QueryRowContext(ctx, `SELECT config, pools FROM manifest WHERE id = 1`).Scan(&config, &raw)
		if err == sql.ErrNoRows {
			return Manifest{}, ErrNoRun
		}
		if err != nil {
			return Manifest{}, err
		}
		var m Manifest
		if err := json.Unmarshal([]byte(raw), &m); err != nil || m.Partitions == nil {
			m = Manifest{}
			if err := json.Unmarshal([]byte(raw), &m.Partitions); err != nil {
				return Manifest{}, fmt.Errorf("run store manifest: %w", err)
			}
		}
		m.Config = []byte(config)
		return m, nil
	})
}

// Pools implements Store.
func (s *sqlStore) Pools(ctx context.Context) (map[string][]pools.Pool, error) {
	m, err := s.Manifest(ctx)
	return m.Partitions, err
}

// StoredPlan is a cell's planner response as stored.
type StoredPlan struct {
	// Plan is protojson of a CreatePlanResponse; empty when the planner
	// call failed.
	Plan []byte
	// Fingerprint is the cell's fingerprint (see StoredCell).
	Fingerprint string
}

// Plan implements Store.
func (s *sqlStore) Plan(ctx context.Context, key string) (StoredPlan, bool, error) {
	var found bool
	p, err := retry(ctx, s, "reading a plan", func() (StoredPlan, error) {
		var raw, fp string
		err := s.db.QueryRowContext(ctx, `SELECT plan, fingerprint FROM cells WHERE key = ?`, key).Scan(&raw, &fp)
		found = err == nil
		if err == sql.ErrNoRows {
			return StoredPlan{}, nil
		}
		return StoredPlan{Plan: []byte(raw), Fingerprint: fp}, err
	})
	if err != nil {
		return StoredPlan{}, false, err
	}
	return p, found, nil
}

// EachScoredPlan implements Store.
func (s *sqlStore) EachScoredPlan(ctx context.Context, fn func(key string, plan []byte) error) error {
	return retryErr(ctx, s, "reading the plans", func() error {
		rows, err := s.db.QueryContext(ctx, `SELECT key, plan FROM cells WHERE excluded = '' AND plan <> ''`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var key string
			var plan []byte
			if err := rows.Scan(&key, &plan); err != nil {
				return err
			}
			if err := fn(key, plan); err != nil {
				return err
			}
		}
		return rows.Err()
	})
}
