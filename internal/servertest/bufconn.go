package servertest

import (
	"context"
	"io"
	"log/slog"
	"net"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	"github.com/triage-eval/triage/internal/server"
	"github.com/triage-eval/triage/internal/telemetry"
)

// Start serves services on a bufconn listener until the test ends and returns
// a connection to them. Server logs go to logOut (io.Discard if nil).
func Start(tb testing.TB, logOut io.Writer, services ...server.Service) *grpc.ClientConn {
	tb.Helper()
	lis := bufconn.Listen(1 << 20)
	conn := serve(tb, lis, logOut, services, func(ctx context.Context, _ string) (net.Conn, error) {
		return lis.DialContext(ctx)
	})
	return conn
}

// StartTCP is Start on a real loopback TCP listener, for benchmarks that
// should pay for the kernel's network stack.
func StartTCP(tb testing.TB, logOut io.Writer, services ...server.Service) *grpc.ClientConn {
	tb.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	return serve(tb, lis, logOut, services, nil)
}

func serve(tb testing.TB, lis net.Listener, logOut io.Writer, services []server.Service, dial func(context.Context, string) (net.Conn, error)) *grpc.ClientConn {
	tb.Helper()
	if logOut == nil {
		logOut = io.Discard
	}
	logger := slog.New(telemetry.LogHandler(slog.NewJSONHandler(logOut, nil)))
	srv, err := server.New(server.DefaultConfig(), logger, telemetry.Disabled(), services)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis) }()
	opts := []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	target := lis.Addr().String()
	if dial != nil {
		opts = append(opts, grpc.WithContextDialer(dial))
		target = "passthrough:///bufnet"
	}
	conn, err := grpc.NewClient(target, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		conn.Close()
		cancel()
		if err := <-done; err != nil {
			tb.Errorf("server: %v", err)
		}
	})
	return conn
}
