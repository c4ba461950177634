package telemetry

import (
	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc/filters"
	"google.golang.org/grpc"
	"google.golang.org/grpc/stats"
)

// ServerHandler is the stats handler of every server: a span and the RPC
// metrics for each call, continuing the trace context the caller sent.
// Health checks, which probes send constantly, are left out.
func (t *Telemetry) ServerHandler() stats.Handler {
	return otelgrpc.NewServerHandler(t.grpcOptions()...)
}

// ClientOption instruments a client connection the same way and sends the
// trace context with every call, so the services a command calls join its
// trace.
func (t *Telemetry) ClientOption() grpc.DialOption {
	return grpc.WithStatsHandler(otelgrpc.NewClientHandler(t.grpcOptions()...))
}

func (t *Telemetry) grpcOptions() []otelgrpc.Option {
	return []otelgrpc.Option{
		otelgrpc.WithTracerProvider(t.TracerProvider),
		otelgrpc.WithMeterProvider(t.MeterProvider),
		otelgrpc.WithPropagators(t.Propagator),
		otelgrpc.WithFilter(filters.Not(filters.HealthCheck())),
	}
}
