package cli

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/platform/transport"
	"github.com/triage-eval/triage/internal/platform/transport/transporttest"
)

// The tokens of the end-to-end test: one for every service, one for the
// planner only.
const (
	e2eToken        = "e2e-token-all-3b8f61c2d9"
	e2ePlannerToken = "e2e-token-planner-77d0a1"
	e2eSecret       = "INTERNAL-SECRET-TOKEN-XYZ db password=hunter2"
)

// serveProcess starts a real triage serve process (this test binary as
// main) with args, on a loopback port, and returns its address and its
// log. The process is killed when the test ends.
func serveProcess(t *testing.T, args ...string) (string, *servertest.LogBuffer) {
	t.Helper()
	logs := &servertest.LogBuffer{}
	cmd := triageCommand(append([]string{"serve", "--listen", "127.0.0.1:0"}, args...)...)
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return waitForAddr(t, logs), logs
}

// TestSecurityEndToEnd is the check against a real triage serve
// process with TLS and a token file: calls without a token, with a wrong
// token, with a token lacking the service and with the right one; an
// inline endpoint on a loopback port that echoes a secret; a maximal
// Oracle request, timed. Then the CLI's own clients dial it, and neither
// the logs nor the files the server wrote contain a token.
func TestSecurityEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a triage process")
	}
	dir := t.TempDir()
	pki := transporttest.New(t)
	tokens := writeFile(t, "tokens.txt", "# end-to-end test tokens\n"+
		server.HashToken(e2eToken)+" *  e2e-all\n"+
		server.HashToken(e2ePlannerToken)+" planner\n")

	// A loopback "model" whose every answer is an error page with a secret.
	var echoed atomic.Int64
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		echoed.Add(1)
		http.Error(w, e2eSecret, http.StatusBadRequest)
	}))
	defer echo.Close()
	echoHost := strings.TrimPrefix(echo.URL, "http://")

	addr, logs := serveProcess(t,
		"--tls-cert", pki.ServerCert, "--tls-key", pki.ServerKey,
		"--auth-tokens", tokens,
		"--allow-inline-endpoints", echoHost,
		"--store", filepath.Join(dir, "triage.db"), "--llm-cache", filepath.Join(dir, "llm-cache.db"))

	tlsCfg, err := transport.ClientConfig(transport.ClientFiles{CA: pki.CA})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(credentials.NewTLS(tlsCfg)))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	oracle := triagev1.NewOracleServiceClient(conn)
	planner := triagev1.NewPlannerServiceClient(conn)
	withToken := func(tok string) context.Context {
		ctx := context.Background()
		if tok == "" {
			return ctx
		}
		return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+tok)
	}
	small := &triagev1.ComputeReferencesRequest{
		Items:   []*triagev1.GroundTruthItem{{Id: "a", Cost: 10, Correct: true}, {Id: "b", Cost: 20}},
		Budgets: []*triagev1.Budget{{Kind: &triagev1.Budget_Alpha{Alpha: 0.5}}},
	}

	t.Run("tokens", func(t *testing.T) {
		for _, tt := range []struct {
			name  string
			token string
			want  codes.Code
		}{
			{"without a token", "", codes.Unauthenticated},
			{"with a wrong token", "wrong-" + e2eToken, codes.Unauthenticated},
			{"with a token lacking the service", e2ePlannerToken, codes.PermissionDenied},
			{"with the right token", e2eToken, codes.OK},
		} {
			_, err := oracle.ComputeReferences(withToken(tt.token), small)
			if status.Code(err) != tt.want {
				t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
			}
		}
		if resp, err := healthpb.NewHealthClient(conn).Check(context.Background(), &healthpb.HealthCheckRequest{}); err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
			t.Errorf("health without a token: %v, %v", resp, err)
		}
	})

	t.Run("inline endpoint echoing a secret", func(t *testing.T) {
		req := &triagev1.CreatePlanRequest{
			Endpoint: &triagev1.CreatePlanRequest_InlineEndpoint{InlineEndpoint: &triagev1.LLMEndpoint{
				BaseUrl: echo.URL + "/v1", Model: "m", Mode: triagev1.SolverMode_SOLVER_MODE_STANDARD, Timeout: durationpb.New(5 * time.Second),
			}},
			Problems: []*triagev1.PlannerProblem{{Id: "p1", Text: "2+2?"}}, Budget: 100,
		}
		_, err := planner.CreatePlan(withToken(e2ePlannerToken), req)
		if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "HTTP 400 Bad Request") {
			t.Errorf("CreatePlan = %v, want FailedPrecondition with the status only", err)
		}
		if strings.Contains(err.Error(), "SECRET") || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("the upstream's body came back: %v", err)
		}
		if echoed.Load() != 1 {
			t.Errorf("the echo server saw %d requests, want 1", echoed.Load())
		}
		// Another port of the same host is not allowed.
		req.GetInlineEndpoint().BaseUrl = "http://127.0.0.1:1/v1"
		if _, err := planner.CreatePlan(withToken(e2ePlannerToken), req); status.Code(err) != codes.InvalidArgument {
			t.Errorf("a host that is not allowed: %v, want InvalidArgument", err)
		}
		// The timeout is refused.
		req.GetInlineEndpoint().BaseUrl, req.GetInlineEndpoint().Timeout = echo.URL+"/v1", durationpb.New(360000*time.Second)
		if _, err := planner.CreatePlan(withToken(e2ePlannerToken), req); status.Code(err) != codes.InvalidArgument {
			t.Errorf("timeout 360000 s: %v, want InvalidArgument", err)
		}
	})

	t.Run("maximal Oracle request", func(t *testing.T) {
		// The request is refused at once, naming the product.
		huge := maximalOracleRequest(64, 1_000_000)
		start := time.Now()
		_, err := oracle.ComputeReferences(withToken(e2eToken), huge)
		fvs := grpcerr.FieldViolations(err)
		if status.Code(err) != codes.InvalidArgument || len(fvs) != 2 || !strings.Contains(fvs[0].GetDescription(), "items × budgets × samples = 100000 × 64 × 1000000 = 6.4e12 exceeds 1e8") ||
			!strings.Contains(fvs[1].GetDescription(), "the answer's plan steps, items × budgets × plans = 100000 × 64 × 1 = 6.4e6 exceeds 1e6") {
			t.Errorf("the issue's request: %v", err)
		}
		t.Logf("100000 items × 64 budgets × 10^6 samples: refused in %v", time.Since(start))

		// The largest allowed request in its slowest shape (one budget near
		// α = 1, non-integer values) is answered, through the whole secured
		// stack. How fast is services/oracle's BenchmarkMaximalRequest (make
		// bench); a test fails only on a hang.
		max := maximalOracleRequest(1, 1000)
		ctx, cancel := context.WithTimeout(withToken(e2eToken), 10*time.Minute)
		defer cancel()
		start = time.Now()
		resp, err := oracle.ComputeReferences(ctx, max)
		if err != nil || len(resp.GetReferences()) != 1 {
			t.Fatalf("maximal request: %v", err)
		}
		t.Logf("100000 items × 1 budget × 1000 samples (race detector: %v): answered in %v", raceEnabled, time.Since(start))
	})

	t.Run("the CLI's clients", func(t *testing.T) {
		input := filepath.Join("testdata", "score", "basic.json")
		score := func(vars map[string]string, args ...string) (string, error) {
			env, out, _ := testEnv(vars)
			err := Run(context.Background(), append([]string{"score", "--executor-addr", addr, "--oracle-addr", addr}, append(args, input)...), env)
			return out.String(), err
		}
		if out, err := score(map[string]string{"TRIAGE_TLS_CA": pki.CA, "TRIAGE_TOKEN": e2eToken}); err != nil || !strings.Contains(out, `"oracle_value"`) {
			t.Errorf("score with TLS and the token: %v\n%s", err, out)
		}
		if _, err := score(nil, "--tls-ca", pki.CA); status.Code(err) != codes.Unauthenticated {
			t.Errorf("score without a token: %v, want Unauthenticated", err)
		}
		if _, err := score(nil, "--tls-ca", pki.CA, "--token", e2ePlannerToken); status.Code(err) != codes.PermissionDenied {
			t.Errorf("score with the planner's token: %v, want PermissionDenied", err)
		}
		if _, err := score(map[string]string{"TRIAGE_TOKEN": e2eToken}); err == nil {
			t.Error("score in plaintext against a TLS server succeeded")
		}
	})

	// Nothing the server logged or wrote carries a token or its hash.
	t.Run("no token in the logs or files", func(t *testing.T) {
		secrets := []string{e2eToken, e2ePlannerToken, server.HashToken(e2eToken), server.HashToken(e2ePlannerToken), "hunter2"}
		if n := strings.Count(logs.String(), `"msg":"finished call"`); n < 10 {
			t.Errorf("the server logged %d calls, want one line per call:\n%s", n, logs)
		}
		for _, s := range secrets {
			if strings.Contains(logs.String(), s) {
				t.Errorf("the server's log contains %q", s)
			}
		}
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, s := range secrets {
				if bytes.Contains(data, []byte(s)) {
					t.Errorf("%s contains %q", path, s)
				}
			}
			return nil
		})
	})
}

// TestMutualTLSEndToEnd serves with a client CA: the CLI's clients need
// their certificate.
func TestMutualTLSEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a triage process")
	}
	pki := transporttest.New(t)
	addr, _ := serveProcess(t, "--services", "oracle,executor", "--store", filepath.Join(t.TempDir(), "triage.db"),
		"--tls-cert", pki.ServerCert, "--tls-key", pki.ServerKey, "--tls-client-ca", pki.CA)
	input := filepath.Join("testdata", "score", "basic.json")
	for _, tt := range []struct {
		name   string
		args   []string
		wantOK bool
	}{
		{"with the client certificate", []string{"--tls-ca", pki.CA, "--tls-cert", pki.ClientCert, "--tls-key", pki.ClientKey}, true},
		{"without it", []string{"--tls-ca", pki.CA}, false},
	} {
		env, out, _ := testEnv(nil)
		err := Run(context.Background(), append(append([]string{"score", "--executor-addr", addr, "--oracle-addr", addr}, tt.args...), input), env)
		if (err == nil) != tt.wantOK {
			t.Errorf("%s: %v, want success %v\n%s", tt.name, err, tt.wantOK, out)
		}
	}
}

// maximalOracleRequest is 100,000 items with non-integer values (the
// slowest Monte Carlo kernel) and budgets spread up to α = 0.999.
func maximalOracleRequest(budgets int, samples int32) *triagev1.ComputeReferencesRequest {
	req := &triagev1.ComputeReferencesRequest{Random: &triagev1.RandomReferenceOptions{Samples: samples, Seed: 1}}
	for i := range 100_000 {
		req.Items = append(req.Items, &triagev1.GroundTruthItem{
			Id: fmt.Sprintf("q%d", i), Cost: int64(1 + (i*7919)%32768), Correct: i%5 < 3, Value: proto.Float64(0.5 + float64(i%97)/97),
		})
	}
	for b := range budgets {
		req.Budgets = append(req.Budgets, &triagev1.Budget{Kind: &triagev1.Budget_Alpha{Alpha: 0.999 * float64(b+1) / float64(budgets)}})
	}
	return req
}
