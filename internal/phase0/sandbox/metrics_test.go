package sandbox

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/attribute"

	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/platform/telemetry/telemetrytest"
)

// TestRunsAreCounted reads back triage.sandbox.runs: one run per outcome,
// and none for New's self-test.
func TestRunsAreCounted(t *testing.T) {
	m := telemetrytest.New(t)
	s := newSandbox(t, Options{MeterProvider: m.Provider})
	if got := m.Sum("triage.sandbox.runs"); got != 0 {
		t.Errorf("the self-test was counted: %d runs", got)
	}
	ctx := context.Background()
	for _, program := range []string{"print(input())", "print('no')", "raise ValueError(input())"} {
		if _, err := s.RunTests(ctx, program, stdinSpec("yes\n", "yes")); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.RunTests(ctx, "print(1)", &grading.CodeSpec{TestType: "nope"}); err == nil {
		t.Fatal("an unknown test type ran")
	}
	for outcome, want := range map[string]int64{"correct": 1, "wrong_answer": 1, "runtime_error": 1, "error": 1} {
		if got := m.Sum("triage.sandbox.runs", attribute.String("outcome", outcome)); got != want {
			t.Errorf("outcome %s: %d runs, want %d", outcome, got, want)
		}
	}
}

func TestRunMetricsCostNothingWhenOff(t *testing.T) {
	m := newRunMetrics(nil)
	ctx := context.Background()
	if n := testing.AllocsPerRun(100, func() { m.record(ctx, grading.Verdict{Outcome: grading.OutcomeCorrect}, nil) }); n != 0 {
		t.Errorf("%v allocations per run with metrics off", n)
	}
}
