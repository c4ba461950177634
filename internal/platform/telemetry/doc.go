// Package telemetry sets up OpenTelemetry tracing and metrics from the
// standard OTEL_* environment variables.
//
// Export is off by default. Traces are exported when OTEL_TRACES_EXPORTER
// names an exporter other than "none", or when it is unset and
// OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set;
// metrics likewise with OTEL_METRICS_EXPORTER and
// OTEL_EXPORTER_OTLP_METRICS_ENDPOINT. OTEL_SDK_DISABLED=true turns both off.
// The exporters themselves are built by the contrib autoexport package, so
// every standard OTEL_EXPORTER_* setting applies.
//
// With tracing off, spans are still created but never sampled or exported:
// every RPC gets a trace id (or keeps its caller's), so log lines can always be
// correlated at the cost of an id per call.
//
// Servers (ServerHandler) and clients (ClientOption) are instrumented with
// the same otelgrpc options and W3C trace-context propagator, so a call
// carries its caller's trace to the service; FromEnvironment reads a
// TRACEPARENT (and TRACESTATE, BAGGAGE) a process was started with, so a
// command joins the trace of the job that ran it.
package telemetry
