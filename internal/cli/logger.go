package cli

import (
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/triage-eval/triage/internal/platform/telemetry"
)

// newLogger returns a slog logger writing format ("json" or "text") at level
// ("debug", "info", "warn" or "error") to w, with trace ids on every line
// logged with a traced context.
func newLogger(w io.Writer, format, level string) (*slog.Logger, error) {
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level: %q is not one of debug, info, warn, error", level)
	}
	opts := &slog.HandlerOptions{Level: lvl}
	switch strings.ToLower(format) {
	case "json":
		return slog.New(telemetry.LogHandler(slog.NewJSONHandler(w, opts))), nil
	case "text":
		return slog.New(telemetry.LogHandler(slog.NewTextHandler(w, opts))), nil
	}
	return nil, fmt.Errorf("--log-format: %q is not json or text", format)
}
