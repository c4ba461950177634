package executor

import (
	"context"
	"iter"

	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/sqldb"
)

// outageAware is the Executor's ground-truth store, whose failures that
// may pass (sqldb.Transient: the store refusing, resetting or cutting
// connections, restarting, out of connections) are *apperr.UnavailableError
// — Unavailable, which callers retry — with the driver's error as the
// cause for the server's log, not sent to the caller. Before, they were an
// Internal "internal error" with no cause anywhere, and a caller could not
// tell an outage from a bug.
type outageAware struct{ groundtruth.Store }

// storeUnavailable is err, or an *apperr.UnavailableError for a failure
// that may pass.
func storeUnavailable(err error) error {
	if !sqldb.Transient(err) {
		return err
	}
	return &apperr.UnavailableError{Reason: "the ground-truth store is not answering; retry later", Cause: err}
}

// Import implements groundtruth.Store.
func (s outageAware) Import(ctx context.Context, records iter.Seq2[groundtruth.Record, error]) (groundtruth.ImportStats, error) {
	stats, err := s.Store.Import(ctx, records)
	return stats, storeUnavailable(err)
}

// Get implements groundtruth.Store.
func (s outageAware) Get(ctx context.Context, solver groundtruth.Solver, dataset string, problemIDs []string) (map[string]groundtruth.Record, error) {
	got, err := s.Store.Get(ctx, solver, dataset, problemIDs)
	return got, storeUnavailable(err)
}

// GetSamples implements groundtruth.Store.
func (s outageAware) GetSamples(ctx context.Context, solver groundtruth.Solver, dataset string, problemIDs []string) (map[string][]groundtruth.Record, error) {
	got, err := s.Store.GetSamples(ctx, solver, dataset, problemIDs)
	return got, storeUnavailable(err)
}

// HasSolver implements groundtruth.Store.
func (s outageAware) HasSolver(ctx context.Context, solver groundtruth.Solver) (bool, error) {
	ok, err := s.Store.HasSolver(ctx, solver)
	return ok, storeUnavailable(err)
}

// List implements groundtruth.Store.
func (s outageAware) List(ctx context.Context, q groundtruth.ListQuery) (groundtruth.Page, error) {
	page, err := s.Store.List(ctx, q)
	return page, storeUnavailable(err)
}
