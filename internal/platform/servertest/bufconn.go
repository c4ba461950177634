package servertest

import (
	"context"
	"io"
	"log/slog"
	"net"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/triage-eval/triage/internal/platform/inproc"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/telemetry"
)

// Start serves services in process (package inproc, the production runner
// on bufconn) until the test ends and returns a connection to them. Server
// logs go to logOut (io.Discard if nil).
func Start(tb testing.TB, logOut io.Writer, services ...server.Service) *grpc.ClientConn {
	tb.Helper()
	conn, err := inproc.Start(server.DefaultConfig(), newLogger(logOut), telemetry.Disabled(), services)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := conn.Close(); err != nil {
			tb.Errorf("in-process server: %v", err)
		}
	})
	return conn.ClientConn
}

// StartTCP is Start on a real loopback TCP listener, for benchmarks that
// should pay for the kernel's network stack.
func StartTCP(tb testing.TB, logOut io.Writer, services ...server.Service) *grpc.ClientConn {
	tb.Helper()
	cfg := server.DefaultConfig()
	cfg.Drain = 0
	srv, err := server.New(cfg, newLogger(logOut), telemetry.Disabled(), services)
	if err != nil {
		tb.Fatal(err)
	}
	conn, err := grpc.NewClient(ServeTCP(tb, srv), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = conn.Close() })
	return conn
}

// ServeTCP serves srv on a loopback TCP port until the test ends, then stops
// it (failing the test if Serve fails), and returns the address.
func ServeTCP(tb testing.TB, srv *server.Server) string {
	tb.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis) }()
	tb.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			tb.Errorf("server: %v", err)
		}
	})
	return lis.Addr().String()
}

// newLogger writes JSON lines with trace ids to w (io.Discard if nil).
func newLogger(w io.Writer) *slog.Logger {
	if w == nil {
		w = io.Discard
	}
	return slog.New(telemetry.LogHandler(slog.NewJSONHandler(w, nil)))
}
