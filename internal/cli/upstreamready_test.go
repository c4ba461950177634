package cli

import (
	"context"
	"log/slog"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/platform/telemetry"
	"github.com/triage-eval/triage/internal/platform/transport"
	"github.com/triage-eval/triage/internal/platform/transport/transporttest"
	"github.com/triage-eval/triage/services/oracle"
)

// TestUpstreamCallsDoNotWaitForADownService: a call to an upstream that
// does not answer fails Unavailable after the upstream wait, not at the
// caller's deadline, naming the service and not its address, and the
// transport's own error (here a refused connection) goes to the operator's
// log instead; a call to one that answers goes through.
func TestUpstreamCallsDoNotWaitForADownService(t *testing.T) {
	var log causeLog
	dial := func(addr string) *grpc.ClientConn {
		cc, err := grpc.NewClient(addr, append(resilientOptions(), grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithChainUnaryInterceptor(upstreamInterceptor("oracle", 200*time.Millisecond, log.add)))...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cc.Close() })
		return cc
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := lis.Addr().String()
	lis.Close() // nothing listens there now

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a hang bound only
	defer cancel()
	_, err = healthpb.NewHealthClient(dial(down)).Check(ctx, &healthpb.HealthCheckRequest{})
	if status.Code(err) != codes.Unavailable || !strings.Contains(err.Error(), "the oracle service is unreachable") || strings.Contains(err.Error(), "127.0.0.1") {
		t.Errorf("call to a down upstream: %v; want Unavailable naming the oracle, not its address", err)
	}
	if causes := log.all(); len(causes) != 1 || !strings.Contains(causes[0].Error(), "connection refused") {
		t.Errorf("causes given for the log: %v; want the refused connection, once", causes)
	}

	up := serveOracle(t, nil)
	if _, err := healthpb.NewHealthClient(dial(up)).Check(ctx, &healthpb.HealthCheckRequest{}); err != nil {
		t.Errorf("call to an upstream that answers: %v", err)
	}

	// An Unavailable the upstream answers itself (with its retry pushback)
	// reaches the caller as it is.
	own := grpc.NewServer()
	healthpb.RegisterHealthServer(own, unavailableHealth{})
	ownLis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = own.Serve(ownLis) }()
	t.Cleanup(own.Stop)
	_, err = healthpb.NewHealthClient(dial(ownLis.Addr().String())).Check(ctx, &healthpb.HealthCheckRequest{})
	if status.Code(err) != codes.Unavailable || !strings.Contains(err.Error(), "the model endpoint is down") {
		t.Errorf("the upstream's own Unavailable: %v; want it passed on", err)
	}
}

// unavailableHealth answers every check Unavailable, with the no-retry
// pushback, as a service does when it cannot serve the call itself.
type unavailableHealth struct {
	healthpb.UnimplementedHealthServer
}

func (unavailableHealth) Check(ctx context.Context, _ *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	_ = grpc.SetTrailer(ctx, metadata.Pairs(grpcerr.RetryPushbackKey, "-1"))
	return nil, status.Error(codes.Unavailable, "the model endpoint is down")
}

// TestMisWiredUpstream: an address that reaches another service's server
// (the Oracle's given as --executor-addr) is found by a command as it
// starts (checkServes), and a served Scoring service's calls through it
// say the service is mis-configured (Internal) instead of passing on
// grpc's "unknown service" as Unimplemented, HTTP 501, which blamed the
// caller's request.
func TestMisWiredUpstream(t *testing.T) {
	addr := serveOracle(t, nil)
	cc, err := grpc.NewClient(addr, append(resilientOptions(), grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithChainUnaryInterceptor(upstreamInterceptor("executor", time.Minute, nil)))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cc.Close() })
	if err := checkServes(cc, triagev1.OracleService_ServiceDesc.ServiceName, time.Minute); err != nil {
		t.Errorf("the Oracle's own address: %v", err)
	}
	if err := checkServes(cc, triagev1.ExecutorService_ServiceDesc.ServiceName, time.Minute); err == nil || !strings.Contains(err.Error(), "does not serve triage.v1.ExecutorService") {
		t.Errorf("the Oracle's address as the Executor's: %v, want it found", err)
	}
	_, err = triagev1.NewExecutorServiceClient(cc).ExecutePlan(context.Background(), &triagev1.ExecutePlanRequest{})
	if st := status.Convert(err); st.Code() != codes.Internal || !strings.Contains(st.Message(), "mis-configured: its --executor-addr reaches a server that does not serve the executor service") {
		t.Errorf("a call through the mis-wired upstream: %v, want Internal saying so", err)
	}
}

// serveOracle serves an Oracle alone on loopback TCP until the test ends,
// with tokens (nil: none), and returns its address.
func serveOracle(t *testing.T, tokens *server.Tokens) string {
	t.Helper()
	cfg := server.DefaultConfig()
	cfg.Drain = 0
	cfg.Tokens = tokens
	srv, err := server.New(cfg, slog.New(slog.DiscardHandler), telemetry.Disabled(), []server.Service{
		{Name: "oracle", Desc: &triagev1.OracleService_ServiceDesc, Impl: oracle.NewService()}})
	if err != nil {
		t.Fatal(err)
	}
	return servertest.ServeTCP(t, srv)
}

// TestUpstreamWithTheWrongTLSFailsAtOnce: a Scoring service whose upstream's
// certificate does not verify against its --upstream-ca answers its
// callers at once that it is mis-configured (Internal, which they do not
// retry), naming the service and not its address, and gives the TLS error
// to the operator's log; it waited out the upstream wait and answered
// Unavailable (retry later) before. The wait here is a minute, so waiting
// shows as the wrong answer, not as a slow test failing.
func TestUpstreamWithTheWrongTLSFailsAtOnce(t *testing.T) {
	served, other := transporttest.New(t), transporttest.New(t)
	srv := startServeHTTP(t, "--services", "oracle", "--tls-cert", served.ServerCert, "--tls-key", served.ServerKey)
	var log causeLog
	cfg, err := transport.ClientConfig(transport.ClientFiles{CA: other.CA})
	if err != nil {
		t.Fatal(err)
	}
	cc, err := grpc.NewClient(srv.grpcAddr, append(resilientOptions(), grpc.WithTransportCredentials(credentials.NewTLS(cfg)),
		grpc.WithChainUnaryInterceptor(upstreamInterceptor("oracle", time.Minute, log.add)))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cc.Close() })
	_, err = triagev1.NewOracleServiceClient(cc).ComputeReferences(context.Background(), &triagev1.ComputeReferencesRequest{})
	if st := status.Convert(err); st.Code() != codes.Internal || !strings.Contains(st.Message(), "mis-configured: its connection to the oracle service fails") || strings.Contains(st.Message(), "127.0.0.1") {
		t.Errorf("a call through an upstream whose certificate does not verify: %v, want Internal naming the oracle, not its address", err)
	}
	if causes := log.all(); len(causes) != 1 || !strings.Contains(causes[0].Error(), "x509") {
		t.Errorf("causes given for the log: %v; want the certificate's error, once", causes)
	}
}

// causeLog collects the causes an upstreamInterceptor gives for the
// operator's log; its calls may come from several goroutines.
type causeLog struct {
	mu     sync.Mutex
	causes []error
}

// add records cause (the interceptor's unreachable).
func (l *causeLog) add(cause error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.causes = append(l.causes, cause)
}

// all returns the causes recorded so far.
func (l *causeLog) all() []error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.causes)
}
