package orchestrator_test

import (
	"errors"
	"sync/atomic"
	"testing"

	"go.opentelemetry.io/otel/attribute"

	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/platform/telemetry/telemetrytest"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
)

// TestCellMetrics reads back triage.run.cells: a planner outage stores the
// llm cells as excluded for "error" and the others as scored; the retry of
// the failed cells counts them scored; fresh cells found on resume are not
// counted.
func TestCellMetrics(t *testing.T) {
	var down atomic.Bool
	down.Store(true)
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(n int, r llmtest.Recorded) llmtest.Reply {
		if down.Load() {
			return llmtest.ServerError()
		}
		return planningModel(n, r)
	}))
	cfg := writeFixture(t, t.TempDir(), srv.URL())
	m := telemetrytest.New(t)
	var failed *orchestrator.CallsFailedError
	if _, _, err := runWith(t, cfg, orchestrator.Options{MeterProvider: m.Provider}); !errors.As(err, &failed) {
		t.Fatalf("a run whose planner is down: %v, want every planner call failed", err)
	}
	excluded, scored := attribute.String("outcome", "excluded"), attribute.String("outcome", "scored")
	llm := attribute.String("strategy", "llm")
	if got := m.Sum("triage.run.cells", excluded, attribute.String("reason", "error"), llm); got != fixtureLLMCells {
		t.Errorf("%d llm cells excluded for error, want %d", got, fixtureLLMCells)
	}
	if got := m.Sum("triage.run.cells", scored); got != fixtureCells-fixtureLLMCells {
		t.Errorf("%d cells scored, want %d", got, fixtureCells-fixtureLLMCells)
	}
	down.Store(false)
	if _, _, err := runWith(t, cfg, orchestrator.Options{MeterProvider: m.Provider}); err != nil {
		t.Fatal(err)
	}
	if got := m.Sum("triage.run.cells", scored, llm); got != fixtureLLMCells {
		t.Errorf("%d llm cells scored after the retry, want %d", got, fixtureLLMCells)
	}
	if got := m.Sum("triage.run.cells"); got != fixtureCells+fixtureLLMCells {
		t.Errorf("%d cells counted over both runs, want %d (the resumed ones are not computed)", got, fixtureCells+fixtureLLMCells)
	}
	if u := m.Unit("triage.run.cells"); u != "{cell}" {
		t.Errorf("unit %q", u)
	}
}
