package telemetry

import (
	"context"
	"strings"

	"go.opentelemetry.io/otel/propagation"
)

// environmentKeys are the propagation fields a process may receive in its
// environment, as OpenTelemetry specifies for environment variables as
// context carriers: TRACEPARENT, TRACESTATE and BAGGAGE.
var environmentKeys = []string{"traceparent", "tracestate", "baggage"}

// environmentCarrier reads propagation fields from environment variables:
// field "traceparent" from TRACEPARENT, and so on. Setting is ignored.
type environmentCarrier func(string) string

// Get returns the variable of key.
func (c environmentCarrier) Get(key string) string { return c(strings.ToUpper(key)) }

// Set does nothing: a process cannot change its parent's environment.
func (environmentCarrier) Set(string, string) {}

// Keys lists the fields present.
func (c environmentCarrier) Keys() []string {
	var out []string
	for _, k := range environmentKeys {
		if c.Get(k) != "" {
			out = append(out, k)
		}
	}
	return out
}

// FromEnvironment returns ctx with the trace context (and baggage) that
// the environment read through getenv carries — a W3C TRACEPARENT set by
// the script or job that started the process — so that the process's spans
// join its caller's trace. Without one, ctx is returned as it is.
func (t *Telemetry) FromEnvironment(ctx context.Context, getenv func(string) string) context.Context {
	return t.Propagator.Extract(ctx, environmentCarrier(getenv))
}

var _ propagation.TextMapCarrier = environmentCarrier(nil)
