package telemetry

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"
)

func TestLogHandlerAddsTraceIDs(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(LogHandler(slog.NewJSONHandler(&buf, nil))).With("component", "x")
	ctx, span := Disabled().TracerProvider.Tracer("t").Start(context.Background(), "op")
	defer span.End()

	logger.InfoContext(ctx, "with span")
	logger.Info("without span")

	lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
	if len(lines) != 2 {
		t.Fatalf("got %d lines", len(lines))
	}
	var with, without map[string]any
	if err := json.Unmarshal(lines[0], &with); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(lines[1], &without); err != nil {
		t.Fatal(err)
	}
	if with["trace_id"] != span.SpanContext().TraceID().String() || with["component"] != "x" {
		t.Errorf("line with span = %v", with)
	}
	if _, ok := without["trace_id"]; ok {
		t.Errorf("line without span has a trace id: %v", without)
	}
}
