package server_test

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/triage-eval/triage/internal/platform/server"
)

func TestDefaultDeadlines(t *testing.T) {
	tests := []struct {
		name      string
		deadlines server.Deadlines
		long      bool          // the probe calls its unary method long-running
		client    time.Duration // the client's own deadline; 0 for none
		wantUnary string
		wantStrm  string
	}{
		{name: "none configured", wantUnary: "none", wantStrm: "none"},
		{name: "defaults", deadlines: server.DefaultDeadlines(), wantUnary: "deadline:2m0s", wantStrm: "deadline:24h0m0s"},
		{name: "long-running unary", deadlines: server.DefaultDeadlines(), long: true, wantUnary: "deadline:24h0m0s", wantStrm: "deadline:24h0m0s"},
		{name: "client's own is kept, longer", deadlines: server.DefaultDeadlines(), client: time.Hour, wantUnary: "deadline:1h0m0s", wantStrm: "deadline:1h0m0s"},
		{name: "client's own is kept, shorter", deadlines: server.DefaultDeadlines(), client: 30 * time.Second, wantUnary: "deadline:30s", wantStrm: "deadline:30s"},
		{name: "unary only", deadlines: server.Deadlines{Default: time.Minute}, wantUnary: "deadline:1m0s", wantStrm: "none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := server.DefaultConfig()
			cfg.Deadlines = tt.deadlines
			p, svc := newProbe()
			p.long = tt.long
			conn := dial(t, serve(t, cfg, nil, nil, svc))
			ctx := context.Background()
			if tt.client > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.client)
				defer cancel()
			}
			if got, err := call(ctx, conn, "deadline"); err != nil || got != tt.wantUnary {
				t.Errorf("unary: %q, %v; want %q", got, err, tt.wantUnary)
			}
			if got, err := callStream(ctx, conn); err != nil || got != tt.wantStrm {
				t.Errorf("stream: %q, %v; want %q", got, err, tt.wantStrm)
			}
		})
	}
}

func TestDefaultDeadlineEndsACall(t *testing.T) {
	cfg := server.DefaultConfig()
	cfg.Deadlines = server.Deadlines{Default: 100 * time.Millisecond}
	_, svc := newProbe()
	conn := dial(t, serve(t, cfg, nil, nil, svc))
	start := time.Now()
	_, err := call(context.Background(), conn, "hold")
	// The probe holds the call until its deadline ends it; without one it
	// would hold it for ever, so a minute only catches a hang.
	if status.Code(err) != codes.DeadlineExceeded || time.Since(start) > time.Minute {
		t.Errorf("held call = %v after %v, want DeadlineExceeded after 100 ms", err, time.Since(start))
	}
}

func TestConfigRejectsNegativeGuards(t *testing.T) {
	for _, mutate := range []func(*server.Config){
		func(c *server.Config) { c.Limits.Rate = -1 },
		func(c *server.Config) { c.Limits.MaxConcurrent = -1 },
		func(c *server.Config) { c.Limits.Burst = -1 },
		func(c *server.Config) { c.Deadlines.Default = -time.Second },
	} {
		cfg := server.DefaultConfig()
		mutate(&cfg)
		if cfg.Validate() == nil {
			t.Errorf("accepted %+v %+v", cfg.Limits, cfg.Deadlines)
		}
	}
}
