package orchestrator

import (
	"context"
	"time"

	"github.com/triage-eval/triage/internal/runs/work"
	"github.com/triage-eval/triage/internal/store/runstore"
)

// unitStore is the run store as the work.Store of one kind of unit: cells
// (claimed only when not stored fresh, see ClaimCells) or any other unit
// claimed by key, whose stored fresh outcomes fresh reads.
type unitStore struct {
	s     runstore.Store
	cells bool
	fresh func(context.Context) (map[string]string, error)
}

// CellUnits is the run store s as the work.Store of the grid's cells.
func CellUnits(s runstore.Store) work.Store {
	return unitStore{s: s, cells: true}
}

// Units is the run store s as the work.Store of units claimed by key
// (baseline problems, re-solves) whose stored fresh fingerprints fresh
// returns by key; a nil fresh knows of none.
func Units(s runstore.Store, fresh func(context.Context) (map[string]string, error)) work.Store {
	if fresh == nil {
		fresh = func(context.Context) (map[string]string, error) { return nil, nil }
	}
	return unitStore{s: s, fresh: fresh}
}

// Claim claims cells with ClaimCells, other units with ClaimKeys.
func (u unitStore) Claim(ctx context.Context, keys, fingerprints []string, worker string, now, until time.Time) (map[string]bool, error) {
	if u.cells {
		return u.s.ClaimCells(ctx, keys, fingerprints, worker, now, until)
	}
	return u.s.ClaimKeys(ctx, keys, worker, now, until)
}

// Renew renews every lease of worker.
func (u unitStore) Renew(ctx context.Context, worker string, until time.Time) error {
	return u.s.RenewAll(ctx, worker, until)
}

// Release gives up worker's claims on keys.
func (u unitStore) Release(ctx context.Context, worker string, keys []string) error {
	return u.s.ReleaseKeys(ctx, worker, keys)
}

// Holders returns every claimed key with when its lease ends.
func (u unitStore) Holders(ctx context.Context) (map[string]time.Time, error) {
	return u.s.Holders(ctx)
}

// Fresh returns the fingerprints of the units of keys stored fresh, by key:
// cells looked up by key (runstore.Store.FreshCells); other units (a
// budget-aware run's re-solves, at most a few thousand) read whole at each
// look and kept to keys.
func (u unitStore) Fresh(ctx context.Context, keys []string) (map[string]string, error) {
	if u.cells {
		return u.s.FreshCells(ctx, keys)
	}
	all, err := u.fresh(ctx)
	if err != nil || all == nil {
		return all, err
	}
	out := make(map[string]string, len(keys))
	for _, k := range keys {
		if fp, ok := all[k]; ok {
			out[k] = fp
		}
	}
	return out, nil
}
