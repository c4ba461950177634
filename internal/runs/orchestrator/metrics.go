package orchestrator

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"

	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// cellMetrics counts the cells a run computes and stores:
//
//	triage.run.cells  {cell}  outcome (scored | excluded), reason (the exclusion:
//	                          error | unparseable | truncated_unparseable | empty_pool |
//	                          no_population; "" when scored), strategy
//
// Cells found fresh in the run store are not counted: they are not computed.
type cellMetrics struct {
	cells metric.Int64Counter
}

func newCellMetrics(mp metric.MeterProvider) cellMetrics {
	if mp == nil {
		mp = noop.NewMeterProvider()
	}
	c, _ := mp.Meter("github.com/triage-eval/triage/internal/runs/orchestrator").Int64Counter("triage.run.cells",
		metric.WithUnit("{cell}"), metric.WithDescription("Cells computed and stored by runs, by outcome and exclusion reason."))
	return cellMetrics{cells: c}
}

// stored counts a cell of strategy stored with exclusion reason excluded
// ("" when scored).
func (m cellMetrics) stored(ctx context.Context, strategy vocab.Strategy, excluded string) {
	if !m.cells.Enabled(ctx) {
		return
	}
	outcome := "scored"
	if excluded != "" {
		outcome = "excluded"
	}
	m.cells.Add(ctx, 1, metric.WithAttributes(
		attribute.String("outcome", outcome), attribute.String("reason", excluded), attribute.String("strategy", string(strategy))))
}
