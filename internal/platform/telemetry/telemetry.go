package telemetry

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.opentelemetry.io/contrib/exporters/autoexport"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// Telemetry holds the providers the servers and clients are instrumented with.
type Telemetry struct {
	// TracerProvider creates spans; it exports only when tracing is enabled.
	TracerProvider trace.TracerProvider
	// MeterProvider records metrics; a no-op when metrics are disabled.
	MeterProvider metric.MeterProvider
	// Propagator carries W3C trace context and baggage across calls.
	Propagator propagation.TextMapPropagator
	// TracesExported and MetricsExported report what the environment enabled.
	TracesExported, MetricsExported bool

	shutdown []func(context.Context) error
}

// Disabled returns telemetry that exports nothing but still mints trace ids.
func Disabled() *Telemetry {
	return &Telemetry{
		TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.NeverSample())),
		MeterProvider:  metricnoop.NewMeterProvider(),
		Propagator:     defaultPropagator(),
	}
}

// Setup builds telemetry for serviceName from the environment read through
// getenv (the exporters also read os.Getenv themselves).
func Setup(ctx context.Context, serviceName string, getenv func(string) string) (*Telemetry, error) {
	t := Disabled()
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return t, nil
	}
	tracesOn := enabled(getenv, "OTEL_TRACES_EXPORTER", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
	metricsOn := enabled(getenv, "OTEL_METRICS_EXPORTER", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT")
	if !tracesOn && !metricsOn {
		return t, nil
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", serviceName)),
		resource.WithFromEnv(),
		resource.WithTelemetrySDK(),
	)
	if err != nil {
		return nil, fmt.Errorf("telemetry resource: %w", err)
	}
	if tracesOn {
		exp, err := autoexport.NewSpanExporter(ctx)
		if err != nil {
			return nil, fmt.Errorf("trace exporter (OTEL_TRACES_EXPORTER): %w", err)
		}
		tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
		t.TracerProvider, t.TracesExported = tp, true
		t.shutdown = append(t.shutdown, tp.Shutdown)
	}
	if metricsOn {
		reader, err := autoexport.NewMetricReader(ctx)
		if err != nil {
			return nil, errors.Join(fmt.Errorf("metric reader (OTEL_METRICS_EXPORTER): %w", err), t.Shutdown(ctx))
		}
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader), sdkmetric.WithResource(res))
		t.MeterProvider, t.MetricsExported = mp, true
		t.shutdown = append(t.shutdown, mp.Shutdown)
	}
	return t, nil
}

// Shutdown flushes and stops the exporters.
func (t *Telemetry) Shutdown(ctx context.Context) error {
	var errs []error
	for _, f := range t.shutdown {
		errs = append(errs, f(ctx))
	}
	t.shutdown = nil
	return errors.Join(errs...)
}

func enabled(getenv func(string) string, exporterVar, signalEndpointVar string) bool {
	switch v := strings.TrimSpace(getenv(exporterVar)); {
	case v == "none":
		return false
	case v != "":
		return true
	}
	return getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv(signalEndpointVar) != ""
}

func defaultPropagator() propagation.TextMapPropagator {
	return propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
}
