package cli

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/platform/telemetry"
	"github.com/triage-eval/triage/internal/platform/transport"
	"github.com/triage-eval/triage/internal/platform/transport/transporttest"
	"github.com/triage-eval/triage/services/oracle"
	"github.com/triage-eval/triage/services/planner"
)

// serveTCP serves services on loopback TCP until the test ends and returns
// the address.
func serveTCP(t *testing.T, services ...server.Service) string {
	t.Helper()
	return serveTCPWith(t, server.DefaultConfig(), services...)
}

// serveTCPWith is serveTCP with cfg (its Drain set to 0).
func serveTCPWith(t *testing.T, cfg server.Config, services ...server.Service) string {
	t.Helper()
	cfg.Drain = 0
	srv, err := server.New(cfg, slog.New(slog.DiscardHandler), telemetry.Disabled(), services)
	if err != nil {
		t.Fatal(err)
	}
	return servertest.ServeTCP(t, srv)
}

// TestServiceUnavailableIsNotRetried: an Unavailable the service answers
// itself (a model endpoint still failing after the gateway's attempts)
// is not retried by the client, which would multiply the model calls; the
// client retries only Unavailable from a server that is not there.
func TestServiceUnavailableIsNotRetried(t *testing.T) {
	model := llmtest.NewServer(t, llmtest.WithHandler(func(int, llmtest.Recorded) llmtest.Reply { return llmtest.ServerError() }))
	pl := planner.New(planner.Config{
		Endpoints: map[string]llm.Endpoint{"down": {Name: "down", BaseURL: model.URL(), Model: "m", Mode: llm.ModeStandard, MaxAttempts: 2, Timeout: 5 * time.Second}},
		Getenv:    func(string) string { return "" }, Now: time.Now,
	})
	addr := serveTCP(t, server.Service{Name: "planner", Desc: &triagev1.PlannerService_ServiceDesc, Impl: pl})
	cc, err := grpc.NewClient(addr, append(resilientOptions(), grpc.WithTransportCredentials(insecure.NewCredentials()))...)
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	_, err = triagev1.NewPlannerServiceClient(cc).CreatePlan(context.Background(), &triagev1.CreatePlanRequest{
		Strategy: triagev1.PlannerStrategy_PLANNER_STRATEGY_LLM,
		Endpoint: &triagev1.CreatePlanRequest_EndpointName{EndpointName: "down"},
		Problems: []*triagev1.PlannerProblem{{Id: "a", Text: "one"}, {Id: "b", Text: "two"}},
		Budget:   100,
	})
	if status.Code(err) != codes.Unavailable {
		t.Fatalf("CreatePlan = %v, want Unavailable", err)
	}
	if n := model.Count(); n != 2 {
		t.Errorf("the model was called %d times, want the gateway's 2 attempts once", n)
	}
}

// TestCommandsReportAServiceThatIsDown: calls wait for a restarting service,
// but a command whose remote service is down when it starts says so.
func TestCommandsReportAServiceThatIsDown(t *testing.T) {
	dead := servertest.FreeLoopbackAddr(t)
	cc, err := grpc.NewClient(dead, append(resilientOptions(), grpc.WithTransportCredentials(insecure.NewCredentials()))...)
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	start := time.Now()
	err = awaitService(cc, 3*time.Second)
	if err == nil || !strings.Contains(err.Error(), "does not answer within 3s") || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("a dead address: %v", err)
	}
	if took := time.Since(start); took > time.Minute { // without its bound it waits for ever: this only catches a hang
		t.Errorf("awaitService took %v", took)
	}
	live := serveTCP(t, server.Service{Name: "oracle", Desc: &triagev1.OracleService_ServiceDesc, Impl: oracle.NewService()})
	c, err := connect([]string{"oracle"}, map[string]string{"oracle": live}, nil, serviceDeps{}, nil)
	if err != nil {
		t.Fatalf("connect to a live server: %v", err)
	}
	c.Close()
}

// flakyHealth fails its first Check with Unavailable, as a server going
// away does (no pushback), and counts the calls.
type flakyHealth struct {
	healthpb.UnimplementedHealthServer
	calls atomic.Int32
}

func (f *flakyHealth) Check(context.Context, *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	if f.calls.Add(1) == 1 {
		return nil, status.Error(codes.Unavailable, "going away")
	}
	return &healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_SERVING}, nil
}

// TestLargeRequestsAreRetried: a call whose request is larger than grpc's
// default retry buffer (256 KiB) is still retried after Unavailable.
func TestLargeRequestsAreRetried(t *testing.T) {
	g := grpc.NewServer()
	h := &flakyHealth{}
	healthpb.RegisterHealthServer(g, h)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go g.Serve(lis)
	defer g.Stop()
	cc, err := grpc.NewClient(lis.Addr().String(), append(resilientOptions(), grpc.WithTransportCredentials(insecure.NewCredentials()))...)
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	big := &healthpb.HealthCheckRequest{Service: strings.Repeat("x", 1<<20)}
	if _, err := healthpb.NewHealthClient(cc).Check(context.Background(), big); err != nil {
		t.Fatalf("a 1 MiB call was not retried: %v", err)
	}
	if n := h.calls.Load(); n != 2 {
		t.Errorf("%d calls, want 2", n)
	}
}

// countingOracle counts the ComputeReferences calls that reach the Oracle.
type countingOracle struct {
	*oracle.Service
	calls atomic.Int32
}

func (o *countingOracle) ComputeReferences(ctx context.Context, req *triagev1.ComputeReferencesRequest) (*triagev1.ComputeReferencesResponse, error) {
	o.calls.Add(1)
	return o.Service.ComputeReferences(ctx, req)
}

// TestResourceExhaustedRetries: a call refused by the caller's rate limit
// is tried again after the delay the server names (its pushback) and
// succeeds; a response over the size limit, also ResourceExhausted, is not
// tried again.
func TestResourceExhaustedRetries(t *testing.T) {
	req := &triagev1.ComputeReferencesRequest{
		Items:   []*triagev1.GroundTruthItem{{Id: "a", Cost: 10, Correct: true}, {Id: "b", Cost: 20, Correct: true}},
		Budgets: []*triagev1.Budget{{Kind: &triagev1.Budget_Alpha{Alpha: 0.5}}},
		Random:  &triagev1.RandomReferenceOptions{Samples: 10},
	}
	dial := func(addr string) triagev1.OracleServiceClient {
		cc, err := grpc.NewClient(addr, append(resilientOptions(), grpc.WithTransportCredentials(insecure.NewCredentials()))...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cc.Close() })
		return triagev1.NewOracleServiceClient(cc)
	}

	t.Run("rate limit", func(t *testing.T) {
		cfg := server.DefaultConfig()
		cfg.Limits.Rate, cfg.Limits.Burst = 4, 1 // one call per 250 ms
		o := &countingOracle{Service: oracle.NewService()}
		client := dial(serveTCPWith(t, cfg, server.Service{Name: "oracle", Desc: &triagev1.OracleService_ServiceDesc, Impl: o}))
		start := time.Now()
		for i := range 3 {
			if _, err := client.ComputeReferences(context.Background(), req); err != nil {
				t.Fatalf("call %d: %v", i, err)
			}
		}
		if took := time.Since(start); took < 400*time.Millisecond {
			t.Errorf("3 calls at 4/s with a burst of 1 took %v: the retries did not wait for the pushback", took)
		}
		if n := o.calls.Load(); n != 3 {
			t.Errorf("%d calls reached the Oracle, want 3 (refused calls never reach it)", n)
		}
	})

	t.Run("response too large", func(t *testing.T) {
		cfg := server.DefaultConfig()
		cfg.MaxMessageBytes = 1024 // the request fits, the response (8 oracle plans of 40 items) does not
		o := &countingOracle{Service: oracle.NewService()}
		client := dial(serveTCPWith(t, cfg, server.Service{Name: "oracle", Desc: &triagev1.OracleService_ServiceDesc, Impl: o}))
		big := &triagev1.ComputeReferencesRequest{Random: &triagev1.RandomReferenceOptions{Samples: 10}}
		for i := range 40 {
			big.Items = append(big.Items, &triagev1.GroundTruthItem{Id: fmt.Sprint(i), Cost: 1, Correct: true})
		}
		for range 8 {
			big.Budgets = append(big.Budgets, &triagev1.Budget{Kind: &triagev1.Budget_Alpha{Alpha: 1}})
		}
		_, err := client.ComputeReferences(context.Background(), big)
		if status.Code(err) != codes.ResourceExhausted {
			t.Fatalf("ComputeReferences = %v, want ResourceExhausted", err)
		}
		if n := o.calls.Load(); n != 1 {
			t.Errorf("the Oracle computed the call %d times, want once", n)
		}
	})
}

// TestAwaitServiceRefusesMisconfiguredTLSAtOnce: a connection no retry can
// cure (a certificate that does not verify, a client certificate missing,
// TLS to a plaintext server) is reported as soon as the check (with its retries) fails, with
// what to change, instead of after the readiness timeout. The timeout is a
// minute, so a wait shows as the wrong message, not as a slow test failing.
func TestAwaitServiceRefusesMisconfiguredTLSAtOnce(t *testing.T) {
	pki := transporttest.New(t)
	tlsSrv := startServeHTTP(t, "--tls-cert", pki.ServerCert, "--tls-key", pki.ServerKey)
	mtlsSrv := startServeHTTP(t, "--tls-cert", pki.ServerCert, "--tls-key", pki.ServerKey, "--tls-client-ca", pki.CA)
	plainSrv := serveTCP(t, server.Service{Name: "oracle", Desc: &triagev1.OracleService_ServiceDesc, Impl: oracle.NewService()})
	for _, tc := range []struct {
		name  string
		addr  string
		files transport.ClientFiles
		want  string
	}{
		{"no CA for the server's certificate", tlsSrv.grpcAddr, transport.ClientFiles{}, "give the server's CA with --tls-ca"},
		{"a name the certificate does not hold", tlsSrv.grpcAddr, transport.ClientFiles{CA: pki.CA, ServerName: "elsewhere.example"}, "--tls-server-name"},
		{"no client certificate for mutual TLS", mtlsSrv.grpcAddr, transport.ClientFiles{CA: pki.CA}, "--tls-cert and --tls-key"},
		{"TLS to a plaintext server", plainSrv, transport.ClientFiles{CA: pki.CA}, "dial without the --tls flags"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := transport.ClientConfig(tc.files)
			if err != nil {
				t.Fatal(err)
			}
			cc, err := grpc.NewClient(tc.addr, append(resilientOptions(), grpc.WithTransportCredentials(credentials.NewTLS(cfg)))...)
			if err != nil {
				t.Fatal(err)
			}
			defer cc.Close()
			err = awaitService(cc, time.Minute)
			if err == nil || !strings.Contains(err.Error(), "refuses the connection") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("awaitService = %v, want it refused at once, saying %q", err, tc.want)
			}
		})
	}
}

// TestAwaitServiceHintsAtTLS: a plaintext client of a TLS server is told,
// besides the connection's error, to dial with TLS.
func TestAwaitServiceHintsAtTLS(t *testing.T) {
	pki := transporttest.New(t)
	srv := startServeHTTP(t, "--tls-cert", pki.ServerCert, "--tls-key", pki.ServerKey)
	cc, err := grpc.NewClient(srv.grpcAddr, append(resilientOptions(), grpc.WithTransportCredentials(insecure.NewCredentials()))...)
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	if err := awaitService(cc, 2*time.Second); err == nil || !strings.Contains(err.Error(), "dial with --tls or --tls-ca") {
		t.Errorf("plaintext to a TLS server: %v, want a hint at --tls", err)
	}
}
