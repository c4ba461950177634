package telemetry

import (
	"context"
	"testing"
)

func TestSetupFromEnvironment(t *testing.T) {
	tests := []struct {
		name                string
		env                 map[string]string
		wantTraces, wantMet bool
	}{
		{name: "off by default", env: nil},
		{name: "sdk disabled wins", env: map[string]string{"OTEL_SDK_DISABLED": "true", "OTEL_TRACES_EXPORTER": "console"}},
		{name: "none", env: map[string]string{"OTEL_TRACES_EXPORTER": "none", "OTEL_METRICS_EXPORTER": "none"}},
		{name: "console traces", env: map[string]string{"OTEL_TRACES_EXPORTER": "console"}, wantTraces: true},
		{name: "console metrics", env: map[string]string{"OTEL_METRICS_EXPORTER": "console"}, wantMet: true},
		{name: "otlp endpoint turns both on", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1"}, wantTraces: true, wantMet: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v) // autoexport reads the process environment
			}
			tel, err := Setup(context.Background(), "test", func(k string) string { return tt.env[k] })
			if err != nil {
				t.Fatal(err)
			}
			defer tel.Shutdown(context.Background())
			if tel.TracesExported != tt.wantTraces || tel.MetricsExported != tt.wantMet {
				t.Errorf("traces=%v metrics=%v, want %v %v", tel.TracesExported, tel.MetricsExported, tt.wantTraces, tt.wantMet)
			}
			_, span := tel.TracerProvider.Tracer("t").Start(context.Background(), "op")
			if !span.SpanContext().TraceID().IsValid() {
				t.Error("spans must carry a trace id even when export is off")
			}
			span.End()
		})
	}
}
