package telemetry

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/trace"
)

func TestFromEnvironment(t *testing.T) {
	tests := []struct {
		name      string
		env       map[string]string
		wantTrace string // "" for no remote parent
		sampled   bool
		baggage   string
	}{
		{name: "nothing", env: nil},
		{name: "traceparent", env: map[string]string{"TRACEPARENT": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"},
			wantTrace: "4bf92f3577b34da6a3ce929d0e0e4736", sampled: true},
		{name: "not sampled, with state and baggage", env: map[string]string{
			"TRACEPARENT": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00", "TRACESTATE": "vendor=x", "BAGGAGE": "job=nightly"},
			wantTrace: "4bf92f3577b34da6a3ce929d0e0e4736", baggage: "job=nightly"},
		{name: "malformed is ignored", env: map[string]string{"TRACEPARENT": "00-nothex-00f067aa0ba902b7-01"}},
		{name: "lower-case variables are not read", env: map[string]string{"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := Disabled().FromEnvironment(context.Background(), func(k string) string { return tt.env[k] })
			sc := trace.SpanContextFromContext(ctx)
			if tt.wantTrace == "" {
				if sc.IsValid() {
					t.Errorf("a parent %v was read", sc)
				}
				return
			}
			if !sc.IsRemote() || sc.TraceID().String() != tt.wantTrace || sc.IsSampled() != tt.sampled {
				t.Errorf("parent = %v (remote %v, sampled %v), want trace %s sampled %v", sc.TraceID(), sc.IsRemote(), sc.IsSampled(), tt.wantTrace, tt.sampled)
			}
			if tt.env["TRACESTATE"] != "" && sc.TraceState().String() != tt.env["TRACESTATE"] {
				t.Errorf("trace state = %q", sc.TraceState().String())
			}
			if got := baggage.FromContext(ctx).String(); got != tt.baggage {
				t.Errorf("baggage = %q, want %q", got, tt.baggage)
			}
		})
	}
}
