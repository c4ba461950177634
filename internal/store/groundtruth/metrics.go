package groundtruth

import (
	"context"
	"errors"
	"iter"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// Instrument returns st recording how long each of its operations takes:
//
//	triage.store.duration  s (histogram)  operation (import | get | has_solver | list),
//	                                      backend (sqlite | postgres), outcome (ok | error)
//
// An import's duration includes reading the records it is given (for the
// Executor, the client's stream). With a nil mp it returns st as it is; with
// a no-op provider the clock is not even read.
func Instrument(st Store, mp metric.MeterProvider) Store {
	if mp == nil {
		return st
	}
	h, _ := mp.Meter("github.com/triage-eval/triage/internal/store/groundtruth").Float64Histogram("triage.store.duration",
		metric.WithUnit("s"),
		metric.WithDescription("Duration of ground-truth store operations."),
		metric.WithExplicitBucketBoundaries(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60))
	backend := "sqlite"
	if _, ok := st.(*pgStore); ok {
		backend = "postgres"
	}
	s := &instrumented{Store: st, duration: h, opts: map[string][2][]metric.RecordOption{}}
	for _, op := range []string{"import", "get", "get_samples", "has_solver", "list"} {
		with := func(outcome string) []metric.RecordOption {
			return []metric.RecordOption{metric.WithAttributeSet(attribute.NewSet(
				attribute.String("operation", op), attribute.String("backend", backend), attribute.String("outcome", outcome)))}
		}
		s.opts[op] = [2][]metric.RecordOption{with("ok"), with("error")}
	}
	return s
}

// instrumented is a Store that times its operations.
type instrumented struct {
	Store
	duration metric.Float64Histogram
	opts     map[string][2][]metric.RecordOption // by operation: ok, error
}

// timed runs f as operation op and records its duration.
func timed[T any](ctx context.Context, s *instrumented, op string, f func() (T, error)) (T, error) {
	if !s.duration.Enabled(ctx) {
		return f()
	}
	start := time.Now()
	v, err := f()
	outcome := 0
	if err != nil {
		outcome = 1
	}
	s.duration.Record(ctx, time.Since(start).Seconds(), s.opts[op][outcome]...)
	return v, err
}

// Import implements Store.
func (s *instrumented) Import(ctx context.Context, records iter.Seq2[Record, error]) (ImportStats, error) {
	return timed(ctx, s, "import", func() (ImportStats, error) { return s.Store.Import(ctx, records) })
}

// Get implements Store.
func (s *instrumented) Get(ctx context.Context, solver Solver, dataset string, problemIDs []string) (map[string]Record, error) {
	return timed(ctx, s, "get", func() (map[string]Record, error) { return s.Store.Get(ctx, solver, dataset, problemIDs) })
}

// GetSamples implements Store.
func (s *instrumented) GetSamples(ctx context.Context, solver Solver, dataset string, problemIDs []string) (map[string][]Record, error) {
	return timed(ctx, s, "get_samples", func() (map[string][]Record, error) {
		return s.Store.GetSamples(ctx, solver, dataset, problemIDs)
	})
}

// HasSolver implements Store.
func (s *instrumented) HasSolver(ctx context.Context, solver Solver) (bool, error) {
	return timed(ctx, s, "has_solver", func() (bool, error) { return s.Store.HasSolver(ctx, solver) })
}

// List implements Store.
func (s *instrumented) List(ctx context.Context, q ListQuery) (Page, error) {
	return timed(ctx, s, "list", func() (Page, error) { return s.Store.List(ctx, q) })
}

// AppliedMigrations implements MigrationLister for the stores Open returns.
func (s *instrumented) AppliedMigrations(ctx context.Context) ([]AppliedMigration, error) {
	ml, ok := s.Store.(MigrationLister)
	if !ok {
		return nil, errors.New("store: this store does not list its migrations")
	}
	return ml.AppliedMigrations(ctx)
}
