package server_test

import (
	"context"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/platform/telemetry"
)

func TestCallsThroughTheChain(t *testing.T) {
	logs := &servertest.LogBuffer{}
	p, svc := newProbe()
	conn := servertest.Start(t, logs, svc)
	ctx := context.Background()

	tests := []struct {
		text       string
		wantCode   codes.Code
		wantReply  string
		wantFields []string
	}{
		{text: "hello", wantCode: codes.OK, wantReply: "echo:hello"},
		{text: "invalid", wantCode: codes.InvalidArgument, wantFields: []string{"value"}},
		{text: "panic", wantCode: codes.Internal},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			got, err := call(ctx, conn, tt.text)
			if status.Code(err) != tt.wantCode {
				t.Fatalf("code = %v (%v), want %v", status.Code(err), err, tt.wantCode)
			}
			if got != tt.wantReply {
				t.Errorf("reply = %q, want %q", got, tt.wantReply)
			}
			var fields []string
			for _, fv := range grpcerr.FieldViolations(err) {
				fields = append(fields, fv.GetField())
			}
			if strings.Join(fields, ",") != strings.Join(tt.wantFields, ",") {
				t.Errorf("field violations = %v, want %v", fields, tt.wantFields)
			}
		})
	}
	if n := p.calls.Load(); n != 2 {
		t.Errorf("handler ran %d times, want 2: validation must stop the invalid call", n)
	}

	// Every RPC is logged once with its code and a trace id; the panic too.
	var finished, panics int
	for _, l := range logs.Records(t) {
		if l["grpc.method"] == "Do" {
			finished++
			if id, _ := l["trace_id"].(string); len(id) != 32 {
				t.Errorf("log line without a trace id: %v", l)
			}
		}
		if l["msg"] == "handler panicked" {
			panics++
			stack, _ := l["stack"].(string)
			if id, _ := l["trace_id"].(string); len(id) != 32 || !strings.Contains(stack, "probe") {
				t.Errorf("panic log needs a trace id and the stack: %v", l)
			}
		}
	}
	if finished != 3 || panics != 1 {
		t.Errorf("logged %d finished calls and %d panics, want 3 and 1", finished, panics)
	}
}

func TestHealthPerService(t *testing.T) {
	logs := &servertest.LogBuffer{}
	_, svc := newProbe()
	conn := servertest.Start(t, logs, svc)
	client := healthpb.NewHealthClient(conn)
	for _, name := range []string{"", "triage.test.Probe"} {
		resp, err := client.Check(context.Background(), &healthpb.HealthCheckRequest{Service: name})
		if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
			t.Errorf("Check(%q) = %v, %v; want SERVING", name, resp, err)
		}
	}
	_, err := client.Check(context.Background(), &healthpb.HealthCheckRequest{Service: "triage.v1.Nope"})
	if status.Code(err) != codes.NotFound {
		t.Errorf("Check(unknown) = %v, want NotFound", err)
	}
	for _, l := range logs.Records(t) {
		if l["grpc.service"] == healthpb.Health_ServiceDesc.ServiceName {
			t.Errorf("health checks must not be logged: %v", l)
		}
	}
}

// startTCP runs a server on loopback TCP under ctx and returns a client and
// the channel Serve's result arrives on.
func startTCP(t *testing.T, ctx context.Context, cfg server.Config, svc server.Service) (*grpc.ClientConn, <-chan error) {
	t.Helper()
	srv, err := server.New(cfg, slog.New(slog.DiscardHandler), telemetry.Disabled(), []server.Service{svc})
	if err != nil {
		t.Fatal(err)
	}
	return serveOn(t, ctx, srv)
}

// startTCPDraining is startTCP for a cfg with a drain period, which ends
// when the test calls endDrain, not when a wall clock says: a check made
// during the drain cannot miss it on a slow machine. endDrain waits for the
// drain to begin and returns the period the server asked its timer for.
func startTCPDraining(t *testing.T, ctx context.Context, cfg server.Config, svc server.Service) (conn *grpc.ClientConn, done <-chan error, endDrain func() time.Duration) {
	t.Helper()
	srv, err := server.New(cfg, slog.New(slog.DiscardHandler), telemetry.Disabled(), []server.Service{svc})
	if err != nil {
		t.Fatal(err)
	}
	ended, asked := make(chan time.Time), make(chan time.Duration, 1)
	server.SetDrainTimer(srv, func(d time.Duration) <-chan time.Time { asked <- d; return ended })
	var once sync.Once
	release := func() { once.Do(func() { close(ended) }) }
	t.Cleanup(release)
	endDrain = func() time.Duration {
		defer release()
		select {
		case d := <-asked:
			return d
		case <-time.After(time.Minute): // only catches a hang
			t.Error("the drain never began")
			return 0
		}
	}
	conn, done = serveOn(t, ctx, srv)
	return conn, done, endDrain
}

// serveOn serves srv on a loopback port until ctx ends.
func serveOn(t *testing.T, ctx context.Context, srv *server.Server) (*grpc.ClientConn, <-chan error) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis) }()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn, done
}

func TestGracefulShutdownLetsInFlightCallsFinish(t *testing.T) {
	p, svc := newProbe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := server.DefaultConfig()
	// A drain keeps NOT_SERVING observable: without one, the graceful stop
	// follows the flip at once and refuses the health checks below. The
	// test ends it once it has seen the flip (the drain itself: TestDrain).
	cfg.Drain = time.Minute
	conn, done, endDrain := startTCPDraining(t, ctx, cfg, svc)

	reply := make(chan error, 1)
	go func() {
		_, err := call(context.Background(), conn, "block")
		reply <- err
	}()
	<-p.started
	health := healthpb.NewHealthClient(conn)
	cancel() // as SIGTERM would

	// Health flips to NOT_SERVING while the call is still in flight.
	deadline := time.Now().Add(time.Minute) // only catches a hang
	for {
		resp, err := health.Check(context.Background(), &healthpb.HealthCheckRequest{})
		if err == nil && resp.GetStatus() == healthpb.HealthCheckResponse_NOT_SERVING {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("health did not turn NOT_SERVING: %v, %v", resp, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	select {
	case err := <-done:
		t.Fatalf("Serve returned (%v) while a call was in flight", err)
	default:
	}
	endDrain()
	close(p.release)
	if err := <-reply; err != nil {
		t.Errorf("in-flight call failed: %v", err)
	}
	if err := <-done; err != nil {
		t.Errorf("Serve = %v, want nil after a requested shutdown", err)
	}
}

func TestShutdownCutsOffAfterGrace(t *testing.T) {
	p, svc := newProbe()
	cfg := server.DefaultConfig()
	cfg.ShutdownGrace = 100 * time.Millisecond
	cfg.Drain = 0
	ctx, cancel := context.WithCancel(context.Background())
	conn, done := startTCP(t, ctx, cfg, svc)

	reply := make(chan error, 1)
	go func() {
		_, err := call(context.Background(), conn, "block")
		reply <- err
	}()
	<-p.started
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve = %v", err)
		}
	case <-time.After(time.Minute): // only catches a hang
		t.Fatal("Serve did not return after the grace period")
	}
	if err := <-reply; err == nil {
		t.Error("the blocked call succeeded; it should have been cut off")
	}
}

func TestNewRejects(t *testing.T) {
	logger := slog.New(slog.DiscardHandler)
	_, svc := newProbe()
	bad := server.DefaultConfig()
	bad.MaxMessageBytes = 10
	if _, err := server.New(bad, logger, telemetry.Disabled(), []server.Service{svc}); err == nil {
		t.Error("tiny max message size accepted")
	}
	bad = server.DefaultConfig()
	bad.Drain = -time.Second
	if _, err := server.New(bad, logger, telemetry.Disabled(), []server.Service{svc}); err == nil {
		t.Error("a negative drain accepted")
	}
	if _, err := server.New(server.DefaultConfig(), logger, telemetry.Disabled(), nil); err == nil {
		t.Error("no services accepted")
	}
	if _, err := server.New(server.DefaultConfig(), logger, telemetry.Disabled(), []server.Service{svc, svc}); err == nil {
		t.Error("a service registered twice accepted")
	}
}
