package cli

import (
	"context"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"

	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/platform/telemetry"
	"github.com/triage-eval/triage/internal/platform/telemetry/telemetrytest"
)

// TestRunRecordsDomainMetrics: a `triage run` with in-process services
// records the domain metrics through the command's meter provider — cells,
// model calls and tokens, store latency — wired through constructors.
func TestRunRecordsDomainMetrics(t *testing.T) {
	model := llmtest.NewServer(t, llmtest.WithHandler(planFirstHalf), llmtest.WithoutLog())
	config := writeGrid(t, t.TempDir(), strings.TrimSuffix(model.URL(), "/v1"))
	m := telemetrytest.New(t)
	env, _, errOut := testEnv(nil)
	env.Telemetry = telemetry.Disabled()
	env.Telemetry.MeterProvider = m.Provider
	if err := Run(context.Background(), []string{"run", "--progress", "off", config}, env); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	const llmCells, cells = 2 * 4 * 4 * 3, 2 * 4 * 4 * 4 // writeGrid
	for _, tt := range []struct {
		name  string
		attrs []attribute.KeyValue
		want  int64
	}{
		{"triage.run.cells", []attribute.KeyValue{attribute.String("outcome", "scored")}, cells},
		{"triage.run.cells", []attribute.KeyValue{attribute.String("strategy", "llm")}, llmCells},
		{"triage.llm.calls", []attribute.KeyValue{attribute.String("outcome", "answered")}, llmCells},
		{"triage.llm.tokens", []attribute.KeyValue{attribute.String("type", "output")}, 5 * llmCells}, // llmtest.OK's usage
	} {
		if got := m.Sum(tt.name, tt.attrs...); got != tt.want {
			t.Errorf("%s %v = %d, want %d", tt.name, tt.attrs, got, tt.want)
		}
	}
	if n := m.Count("triage.store.duration", attribute.String("operation", "import")); n == 0 {
		t.Error("no store latency recorded for the run's ground-truth import")
	}
	if n := m.Count("rpc.server.call.duration"); n == 0 {
		t.Error("the in-process services recorded no RPC metrics")
	}
}
