package cli

import (
	"context"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/triage-eval/triage/internal/platform/servertest"
)

// TestWatchOutagesReportsAServiceThatStaysDown: a client whose server goes
// away while a call waits for it says so once the outage has lasted the
// threshold, says so again when the server is back, and stops watching
// when the connection closes; a connection that never fails says nothing.
func TestWatchOutagesReportsAServiceThatStaysDown(t *testing.T) {
	// The server comes back on the same address: one below the ephemeral
	// range, which no outgoing connection takes while it is down.
	addr := servertest.FreeLoopbackAddr(t)
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	serve := func(lis net.Listener) *grpc.Server {
		s := grpc.NewServer()
		healthpb.RegisterHealthServer(s, health.NewServer())
		go s.Serve(lis)
		return s
	}
	srv := serve(lis)

	cc, err := grpc.NewClient(addr, append(resilientOptions(), grpc.WithTransportCredentials(insecure.NewCredentials()))...)
	if err != nil {
		t.Fatal(err)
	}
	if err := awaitService(cc, time.Minute); err != nil { // only catches a hang
		t.Fatal(err)
	}
	out := &servertest.LogBuffer{}
	watched := make(chan struct{})
	go func() {
		watchOutages(cc, "oracle service at "+addr, out, 300*time.Millisecond, time.Now)
		close(watched)
	}()
	waitFor := func(what string) {
		t.Helper()
		waitUntil(t, time.Minute, strconv.Quote(what), func() bool { return strings.Contains(out.String(), what) }, out.String)
	}

	time.Sleep(500 * time.Millisecond)
	if out.String() != "" {
		t.Fatalf("reported a service that answers: %q", out)
	}
	srv.Stop()
	// A call waits for the service, as a run's calls do.
	called := make(chan error, 1)
	go func() {
		_, err := healthpb.NewHealthClient(cc).Check(context.Background(), &healthpb.HealthCheckRequest{})
		called <- err
	}()
	waitFor("warning: oracle service at " + addr + " has not answered for 300ms; calls wait for it to come back")

	lis, err = net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	srv = serve(lis)
	defer srv.Stop()
	waitFor("oracle service at " + addr + " answers again after")
	if err := <-called; err != nil {
		t.Errorf("the waiting call: %v", err)
	}
	if n := strings.Count(out.String(), "\n"); n != 2 {
		t.Errorf("%d lines, want the warning and the recovery:\n%s", n, out)
	}
	cc.Close()
	select {
	case <-watched:
	case <-time.After(time.Minute): // only catches a hang
		t.Fatal("the watch did not end when the connection closed")
	}
}
