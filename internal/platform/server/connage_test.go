package server_test

import (
	"context"
	"log/slog"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/telemetry"
	"github.com/triage-eval/triage/services/oracle"
)

// countingListener counts the connections it accepts.
type countingListener struct {
	net.Listener
	accepted atomic.Int32
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.accepted.Add(1)
	}
	return c, err
}

// TestMaxConnectionAgeMovesClients: with MaxConnectionAge a client's
// connection is ended after that long and its next calls go on a new one
// (where a balancing client resolves the service again); with 0, one
// connection serves every call.
func TestMaxConnectionAgeMovesClients(t *testing.T) {
	for _, tt := range []struct {
		name     string
		age      time.Duration
		wantMore bool
	}{{"aged", 50 * time.Millisecond, true}, {"for ever", 0, false}} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := server.DefaultConfig()
			cfg.Drain, cfg.MaxConnectionAge = 0, tt.age
			srv, err := server.New(cfg, slog.New(slog.DiscardHandler), telemetry.Disabled(), []server.Service{
				{Name: "oracle", Desc: &triagev1.OracleService_ServiceDesc, Impl: oracle.NewService()},
			})
			if err != nil {
				t.Fatal(err)
			}
			tcp, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			lis := &countingListener{Listener: tcp}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- srv.Serve(ctx, lis) }()
			defer func() { cancel(); <-done }()
			conn, err := grpc.NewClient(tcp.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			health := healthpb.NewHealthClient(conn)
			// Calls until a second connection comes (the minute only
			// catches a hang), or for a second — 20 ages of the aged case —
			// without an age.
			deadline := time.Now().Add(time.Minute)
			if tt.age == 0 {
				deadline = time.Now().Add(time.Second)
			}
			for lis.accepted.Load() < 2 && time.Now().Before(deadline) {
				if _, err := health.Check(context.Background(), &healthpb.HealthCheckRequest{}, grpc.WaitForReady(true)); err != nil {
					t.Fatal(err)
				}
				time.Sleep(20 * time.Millisecond)
			}
			if more := lis.accepted.Load() >= 2; more != tt.wantMore {
				t.Errorf("%d connections accepted; want a new one after the age: %v", lis.accepted.Load(), tt.wantMore)
			}
		})
	}
}
