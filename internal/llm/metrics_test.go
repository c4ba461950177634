package llm

import (
	"context"
	"path/filepath"
	"testing"

	"go.opentelemetry.io/otel/attribute"

	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/platform/telemetry/telemetrytest"
)

// TestMetrics reads back what calls record: outcomes, the tokens of
// answered calls, and each retry with its reason.
func TestMetrics(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithScript(
		llmtest.RateLimited(""), llmtest.Malformed(), llmtest.OpenAI(llmtest.Completion{Content: "4", PromptTokens: 120, CompletionTokens: 30, TotalTokens: 170}),
		llmtest.BadRequest("no"),
	))
	cache, err := OpenCache(context.Background(), filepath.Join(t.TempDir(), "cache.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	m := telemetrytest.New(t)
	c := newTestClient(t, testEndpoint(srv), &sleeps{}, WithCache(cache), WithMeterProvider(m.Provider))
	ctx := context.Background()
	if _, err := c.Complete(ctx, userRequest("2+2?")); err != nil { // 429, malformed, answered
		t.Fatal(err)
	}
	if r, err := c.Complete(ctx, userRequest("2+2?")); err != nil || !r.CacheHit {
		t.Fatalf("second call: %v, %v; want a cache hit", r.CacheHit, err)
	}
	if _, err := c.Complete(ctx, userRequest("3+3?")); err == nil { // 400
		t.Fatal("a 400 succeeded")
	}
	endpoint := attribute.String("endpoint", "test")
	for _, tt := range []struct {
		name  string
		attrs []attribute.KeyValue
		want  int64
	}{
		{"triage.llm.calls", []attribute.KeyValue{endpoint, attribute.String("outcome", "answered")}, 1},
		{"triage.llm.calls", []attribute.KeyValue{endpoint, attribute.String("outcome", "cache_hit")}, 1},
		{"triage.llm.calls", []attribute.KeyValue{endpoint, attribute.String("outcome", "failed")}, 1},
		{"triage.llm.tokens", []attribute.KeyValue{endpoint, attribute.String("type", "input")}, 120},
		{"triage.llm.tokens", []attribute.KeyValue{endpoint, attribute.String("type", "output")}, 50}, // max(30, 170 − 120)
		{"triage.llm.retries", []attribute.KeyValue{endpoint, attribute.String("reason", "rate_limited")}, 1},
		{"triage.llm.retries", []attribute.KeyValue{endpoint, attribute.String("reason", "malformed")}, 1},
		{"triage.llm.retries", nil, 2},
	} {
		if got := m.Sum(tt.name, tt.attrs...); got != tt.want {
			t.Errorf("%s %v = %d, want %d", tt.name, tt.attrs, got, tt.want)
		}
	}
	for name, unit := range map[string]string{"triage.llm.calls": "{call}", "triage.llm.tokens": "{token}", "triage.llm.retries": "{retry}"} {
		if got := m.Unit(name); got != unit {
			t.Errorf("%s unit = %q, want %q", name, got, unit)
		}
	}
}

// TestMetricsCostNothingWhenOff: without a meter provider, recording
// allocates nothing.
func TestMetricsCostNothingWhenOff(t *testing.T) {
	m := newMetrics(nil, "off")
	ctx := context.Background()
	r := &Response{PromptTokens: 3, Cost: 4}
	var err error = &StatusError{StatusCode: 503}
	if n := testing.AllocsPerRun(100, func() {
		m.call(ctx, outcomeAnswered, r)
		m.call(ctx, outcomeFailed, nil)
		m.retry(ctx, err)
	}); n != 0 {
		t.Errorf("recording allocates %v times per call with metrics off", n)
	}
}
