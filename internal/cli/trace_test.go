package cli

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/platform/telemetry"
	"github.com/triage-eval/triage/services/executor"
	"github.com/triage-eval/triage/services/oracle"
)

// recording returns telemetry whose spans all go to an in-memory exporter.
func recording() (*telemetry.Telemetry, *tracetest.InMemoryExporter) {
	exp := tracetest.NewInMemoryExporter()
	tel := telemetry.Disabled()
	tel.TracerProvider = sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	return tel, exp
}

// serveRecorded serves svc on loopback TCP with its own recording
// telemetry until the test ends.
func serveRecorded(t *testing.T, svc server.Service) (string, *tracetest.InMemoryExporter) {
	t.Helper()
	tel, exp := recording()
	cfg := server.DefaultConfig()
	cfg.Drain = 0
	srv, err := server.New(cfg, slog.New(slog.DiscardHandler), tel, []server.Service{svc})
	if err != nil {
		t.Fatal(err)
	}
	return servertest.ServeTCP(t, srv), exp
}

// spanNames maps each span's name to its trace id.
func spanTraces(spans tracetest.SpanStubs) map[string]trace.TraceID {
	out := map[string]trace.TraceID{}
	for _, s := range spans {
		out[s.Name] = s.SpanContext.TraceID()
	}
	return out
}

// TestScoreIsOneTrace: one `triage score` is one trace across the command,
// the Executor and the Oracle — remote, each its own process with its own
// exporter, or in process — and a TRACEPARENT in the command's environment
// is its parent.
func TestScoreIsOneTrace(t *testing.T) {
	input := filepath.Join("testdata", "score", "basic.json")
	const parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	parentTrace, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	parentSpan, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	for _, tt := range []struct {
		name        string
		remote      bool
		traceparent string
	}{
		{"remote services", true, ""},
		{"in process", false, ""},
		{"remote services under a TRACEPARENT", true, parent},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tel, cliSpans := recording()
			env, _, _ := testEnv(map[string]string{"TRACEPARENT": tt.traceparent})
			env.Telemetry = tel
			args := []string{"score", input}
			var execSpans, oracleSpans *tracetest.InMemoryExporter
			if tt.remote {
				var execAddr, oracleAddr string
				execAddr, execSpans = serveRecorded(t, server.Service{Name: "executor", Desc: &triagev1.ExecutorService_ServiceDesc, Impl: executor.New(nil, nil)})
				oracleAddr, oracleSpans = serveRecorded(t, server.Service{Name: "oracle", Desc: &triagev1.OracleService_ServiceDesc, Impl: oracle.NewService()})
				args = append(args, "--executor-addr", execAddr, "--oracle-addr", oracleAddr)
			}
			if err := Run(context.Background(), args, env); err != nil {
				t.Fatal(err)
			}
			var root *tracetest.SpanStub
			for i, s := range cliSpans.GetSpans() {
				if s.Name == "triage score" {
					root = &cliSpans.GetSpans()[i]
				}
			}
			if root == nil {
				t.Fatalf("no command span among %v", spanTraces(cliSpans.GetSpans()))
			}
			want := root.SpanContext.TraceID()
			if tt.traceparent != "" && (want != parentTrace || root.Parent.SpanID() != parentSpan) {
				t.Errorf("command span in trace %v under %v, want the TRACEPARENT's %v under %v", want, root.Parent.SpanID(), parentTrace, parentSpan)
			}
			if tt.traceparent == "" && root.Parent.IsValid() {
				t.Errorf("command span has a parent %v without TRACEPARENT", root.Parent)
			}
			// The Scoring service runs in process; it calls remote services
			// over gRPC, and the ones of its own process directly.
			served := map[string]*tracetest.InMemoryExporter{"scoring": cliSpans}
			if tt.remote {
				served["executor"], served["oracle"] = execSpans, oracleSpans
			}
			for service, spans := range served {
				method := map[string]string{"scoring": "triage.v1.ScoringService/ScorePlan", "executor": "triage.v1.ExecutorService/ExecutePlan", "oracle": "triage.v1.OracleService/ComputeReferences"}[service]
				// A server ends its span after it has sent the answer, so a
				// remote one may end just after the command returns: wait
				// for it (the bound only catches a span that never comes).
				var found *tracetest.SpanStub
				for deadline := time.Now().Add(time.Minute); found == nil && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
					for _, s := range spans.GetSpans() {
						if s.Name == method && s.SpanKind == trace.SpanKindServer {
							found = &s
						}
					}
				}
				switch {
				case found == nil:
					t.Errorf("no server span of %s among %v", method, spanTraces(spans.GetSpans()))
				case found.SpanContext.TraceID() != want:
					t.Errorf("%s's span is in trace %v, the command's is %v", service, found.SpanContext.TraceID(), want)
				}
			}
		})
	}
}
