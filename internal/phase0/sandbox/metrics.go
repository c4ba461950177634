package sandbox

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"

	"github.com/triage-eval/triage/internal/phase0/grading"
)

// runMetrics counts the programs RunTests runs:
//
//	triage.sandbox.runs  {run}  outcome (correct | wrong_answer | timeout | runtime_error,
//	                            the verdict's; error: the tests could not be run)
//
// The self-test New runs is not counted.
type runMetrics struct {
	runs metric.Int64Counter
	opts map[grading.Outcome][]metric.AddOption
}

// outcomeError is the outcome of a run whose tests could not be run.
const outcomeError grading.Outcome = "error"

func newRunMetrics(mp metric.MeterProvider) *runMetrics {
	if mp == nil {
		mp = noop.NewMeterProvider()
	}
	m := &runMetrics{opts: map[grading.Outcome][]metric.AddOption{}}
	m.runs, _ = mp.Meter("github.com/triage-eval/triage/internal/phase0/sandbox").Int64Counter("triage.sandbox.runs",
		metric.WithUnit("{run}"), metric.WithDescription("Programs run against their tests in the sandbox, by outcome."))
	for _, o := range []grading.Outcome{grading.OutcomeCorrect, grading.OutcomeWrongAnswer, grading.OutcomeTimeout, grading.OutcomeRuntimeError, outcomeError} {
		m.opts[o] = []metric.AddOption{metric.WithAttributeSet(attribute.NewSet(attribute.String("outcome", string(o))))}
	}
	return m
}

// record counts one run that ended with v, or err.
func (m *runMetrics) record(ctx context.Context, v grading.Verdict, err error) {
	outcome := v.Outcome
	if err != nil {
		outcome = outcomeError
	}
	opts, ok := m.opts[outcome]
	if !ok {
		opts = []metric.AddOption{metric.WithAttributes(attribute.String("outcome", string(outcome)))}
	}
	m.runs.Add(ctx, 1, opts...)
}
