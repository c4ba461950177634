package groundtruth_test

import (
	"context"
	"path/filepath"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric/noop"

	"github.com/triage-eval/triage/internal/platform/telemetry/telemetrytest"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/groundtruth/storetest"
)

func TestInstrumentRecordsLatency(t *testing.T) {
	ctx := context.Background()
	st, err := groundtruth.Open(ctx, filepath.Join(t.TempDir(), "gt.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m := telemetrytest.New(t)
	s := groundtruth.Instrument(st, m.Provider)
	if _, err := s.Import(ctx, storetest.Gen{Models: 1, Datasets: 1, Problems: 10}.Records()); err != nil {
		t.Fatal(err)
	}
	solver := storetest.Solver(0, 0)
	if _, err := s.Get(ctx, solver, storetest.Dataset(0), []string{"x"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.HasSolver(ctx, solver); err != nil {
		t.Fatal(err)
	}
	if _, err := s.List(ctx, groundtruth.ListQuery{PageToken: "not a token"}); err == nil {
		t.Fatal("a bad page token was accepted")
	}
	if _, err := s.List(ctx, groundtruth.ListQuery{}); err != nil {
		t.Fatal(err)
	}
	sqlite := attribute.String("backend", "sqlite")
	for _, tt := range []struct {
		op, outcome string
		want        uint64
	}{{"import", "ok", 1}, {"get", "ok", 1}, {"has_solver", "ok", 1}, {"list", "ok", 1}, {"list", "error", 1}} {
		if got := m.Count("triage.store.duration", sqlite, attribute.String("operation", tt.op), attribute.String("outcome", tt.outcome)); got != tt.want {
			t.Errorf("%s/%s: %d durations recorded, want %d", tt.op, tt.outcome, got, tt.want)
		}
	}
	if u := m.Unit("triage.store.duration"); u != "s" {
		t.Errorf("unit %q", u)
	}
	if _, ok := s.(groundtruth.MigrationLister); !ok {
		t.Error("an instrumented store no longer lists its migrations")
	}
	if groundtruth.Instrument(st, nil) != st {
		t.Error("Instrument(st, nil) must be st itself")
	}
}

// stubStore answers HasSolver without any work.
type stubStore struct{ groundtruth.Store }

func (stubStore) HasSolver(context.Context, groundtruth.Solver) (bool, error) { return true, nil }

// TestInstrumentCostsNothingWhenOff: with a no-op meter provider, an
// instrumented call allocates nothing beyond the store's own.
func TestInstrumentCostsNothingWhenOff(t *testing.T) {
	off := groundtruth.Instrument(stubStore{}, noop.NewMeterProvider())
	ctx := context.Background()
	if n := testing.AllocsPerRun(100, func() { off.HasSolver(ctx, groundtruth.Solver{}) }); n != 0 {
		t.Errorf("%v allocations per call with metrics off", n)
	}
}
