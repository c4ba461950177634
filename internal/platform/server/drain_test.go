package server_test

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	"github.com/triage-eval/triage/internal/platform/server"
)

// watch opens a health Watch on service and returns it after its first
// status, which must be SERVING.
func watch(t *testing.T, conn *grpc.ClientConn, service string) healthpb.Health_WatchClient {
	t.Helper()
	w, err := healthpb.NewHealthClient(conn).Watch(context.Background(), &healthpb.HealthCheckRequest{Service: service})
	if err != nil {
		t.Fatal(err)
	}
	if resp, err := w.Recv(); err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("first watched status = %v, %v; want SERVING", resp, err)
	}
	return w
}

// TestDrain: on shutdown, probes see NOT_SERVING at once (on Check and on
// an open Watch) while calls are still accepted and served, on open
// connections and new ones, for the drain period; then open watches end
// and the server stops without waiting for its grace period.
func TestDrain(t *testing.T) {
	const drain = 2 * time.Second
	_, svc := newProbe()
	cfg := server.DefaultConfig()
	cfg.Drain = drain
	cfg.ShutdownGrace = 30 * time.Minute
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	conn, done, endDrain := startTCPDraining(t, ctx, cfg, svc)
	watching := []healthpb.Health_WatchClient{watch(t, conn, ""), watch(t, conn, "triage.test.Probe")}

	cancel() // as SIGTERM would
	for i, w := range watching {
		if resp, err := w.Recv(); err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_NOT_SERVING {
			t.Errorf("watch %d during the drain: %v, %v; want NOT_SERVING", i, resp, err)
		}
	}
	for _, name := range []string{"", "triage.test.Probe"} {
		resp, err := healthpb.NewHealthClient(conn).Check(context.Background(), &healthpb.HealthCheckRequest{Service: name})
		if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_NOT_SERVING {
			t.Errorf("Check(%q) during the drain = %v, %v; want NOT_SERVING", name, resp, err)
		}
	}
	if got, err := call(context.Background(), conn, "still here"); err != nil || got != "echo:still here" {
		t.Errorf("call on an open connection during the drain = %q, %v", got, err)
	}
	fresh, err := grpc.NewClient(conn.Target(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if got, err := call(context.Background(), fresh, "new"); err != nil || got != "echo:new" {
		t.Errorf("call on a new connection during the drain = %q, %v", got, err)
	}
	select {
	case err := <-done:
		t.Fatalf("Serve returned (%v) during the drain", err)
	default:
	}
	if got := endDrain(); got != drain {
		t.Errorf("the drain waited for a timer of %v, want the configured %v", got, drain)
	}

	for i, w := range watching {
		if _, err := w.Recv(); status.Code(err) != codes.Unavailable {
			t.Errorf("watch %d after the drain: %v, want Unavailable", i, err)
		}
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve = %v", err)
		}
	case <-time.After(time.Minute): // only catches a hang; the grace period is 30 min
		t.Fatal("Serve did not return: the open watches held the shutdown")
	}
}

// TestWatchDoesNotHoldShutdown: without a drain, an open Watch ends at
// shutdown instead of holding it for the whole grace period.
func TestWatchDoesNotHoldShutdown(t *testing.T) {
	_, svc := newProbe()
	cfg := server.DefaultConfig()
	cfg.Drain = 0
	cfg.ShutdownGrace = time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	conn, done := startTCP(t, ctx, cfg, svc)
	w := watch(t, conn, "")
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve = %v", err)
		}
	case <-time.After(time.Minute): // only catches a hang; the grace period is an hour
		t.Fatal("an open Watch held the shutdown")
	}
	t.Logf("stopped in %v", time.Since(start))
	for {
		resp, err := w.Recv()
		if err != nil {
			if status.Code(err) != codes.Unavailable {
				t.Errorf("watch ended with %v, want Unavailable", err)
			}
			break
		}
		if resp.GetStatus() != healthpb.HealthCheckResponse_NOT_SERVING {
			t.Errorf("watch got %v at shutdown, want NOT_SERVING", resp.GetStatus())
		}
	}
}
