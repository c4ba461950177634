package cli

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/internal/platform/server"
)

// TestUpstreamRefusingTheServiceTokenIsAMisconfiguration: an upstream
// that refuses the Scoring service's own token (--upstream-token-file: a
// token it does not know, or one that does not grant the service; or an
// address that reaches another service's server, whose token rule refuses
// the call before grpc would say "unknown service") is the deployment's
// fault. It was passed on as it came, Unauthenticated "the token is not
// valid on this server" or PermissionDenied "token upstream may not call
// …", which told the Scoring service's caller, whose own token is fine,
// that theirs was refused, and named the deployment's token.
func TestUpstreamRefusingTheServiceTokenIsAMisconfiguration(t *testing.T) {
	const (
		granted = "0123456789abcdef0123456789abcdef" // grants the oracle only
		unknown = "ffffffffffffffffffffffffffffffff"
	)
	tokens, err := server.ParseTokens("tokens", strings.NewReader(server.HashToken(granted)+" oracle upstream\n"), []string{"oracle", "executor"})
	if err != nil {
		t.Fatal(err)
	}
	addr := serveOracle(t, tokens)
	for _, tt := range []struct {
		name, service, token string
		call                 func(context.Context, *grpc.ClientConn) error
	}{
		{"an unknown token", "oracle", unknown, func(ctx context.Context, cc *grpc.ClientConn) error {
			_, err := triagev1.NewOracleServiceClient(cc).ComputeReferences(ctx, &triagev1.ComputeReferencesRequest{})
			return err
		}},
		{"the Oracle's address as the Executor's", "executor", granted, func(ctx context.Context, cc *grpc.ClientConn) error {
			_, err := triagev1.NewExecutorServiceClient(cc).ExecutePlan(ctx, &triagev1.ExecutePlanRequest{})
			return err
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cc, err := grpc.NewClient(addr, append(resilientOptions(), grpc.WithTransportCredentials(insecure.NewCredentials()),
				grpc.WithChainUnaryInterceptor(upstreamInterceptor(tt.service, time.Minute, nil)))...)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cc.Close() })
			ctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+tt.token)
			err = tt.call(ctx, cc)
			st := status.Convert(err)
			if st.Code() != codes.Internal || !strings.Contains(st.Message(), "mis-configured") || !strings.Contains(st.Message(), "--upstream-token-file") {
				t.Errorf("call = %v; want Internal saying the service is mis-configured", err)
			}
			if strings.Contains(st.Message(), "upstream may not") || strings.Contains(st.Message(), "token upstream") {
				t.Errorf("the message names the deployment's token: %q", st.Message())
			}
		})
	}
}

// TestUpstreamAtItsLimitsIsBusy: an upstream that refuses a call because
// the Scoring service's token is over the limits it sets (which every
// caller of the Scoring service shares), once grpc's retries after its
// pushback are spent, makes the caller's answer say the upstream service
// is busy, with the upstream's RetryInfo: passed on as it came, it said
// "the caller's rate limit … is reached", of calls the caller never made.
// A ResourceExhausted without RetryInfo (a message over a size limit) is
// passed on as it is.
func TestUpstreamAtItsLimitsIsBusy(t *testing.T) {
	cc, err := grpc.NewClient(serveOracle(t, nil), append(resilientOptions(), grpc.WithTransportCredentials(insecure.NewCredentials()))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cc.Close() })
	limited := grpcerr.ToStatus(&apperr.ResourceExhaustedError{Reason: "the caller's rate limit (0.01 calls/s, burst 1) is reached; retry in 1m40s", RetryAfter: 100 * time.Second})
	tooLarge := status.Error(codes.ResourceExhausted, "grpc: received message larger than max (20000000 vs. 16777216)")
	for _, tt := range []struct {
		name     string
		upstream error
		want     string
		delay    time.Duration
	}{
		{"over the token's limits", limited, "the oracle service is busy: this service's calls to it are at the limits it sets them; retry in 1m40s", 100 * time.Second},
		{"over a size limit", tooLarge, "grpc: received message larger than max (20000000 vs. 16777216)", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			invoker := func(context.Context, string, any, any, *grpc.ClientConn, ...grpc.CallOption) error {
				return tt.upstream
			}
			err := upstreamInterceptor("oracle", time.Minute, nil)(context.Background(), triagev1.OracleService_ComputeReferences_FullMethodName, nil, nil, cc, invoker)
			st := status.Convert(err)
			if st.Code() != codes.ResourceExhausted || st.Message() != tt.want {
				t.Errorf("answer = %v; want ResourceExhausted %q", err, tt.want)
			}
			if d, ok := grpcerr.RetryDelay(err); d != tt.delay || ok != (tt.delay > 0) {
				t.Errorf("RetryInfo = %v, %v; want %v", d, ok, tt.delay)
			}
		})
	}
}

// TestUpstreamTokenFileErrorsNameTheirFlag: a missing or empty
// --upstream-token-file is a usage error naming that flag (it named
// --token-file, which serve has not, and blamed --oracle-addr), whichever
// upstream address it is for.
func TestUpstreamTokenFileErrorsNameTheirFlag(t *testing.T) {
	empty := writeFile(t, "empty", "\n")
	for _, tc := range []struct{ file, want string }{
		{filepath.Join(t.TempDir(), "missing"), "--upstream-token-file: open "},
		{empty, "--upstream-token-file: the file is empty"},
	} {
		env, _, _ := testEnv(map[string]string{"TRIAGE_LISTEN": "127.0.0.1:0", "TRIAGE_LLM_CACHE": "off"})
		err := Run(context.Background(), []string{"serve", "--services", "scoring", "--oracle-addr", "127.0.0.1:1", "--executor-addr", "127.0.0.1:2", "--upstream-token-file", tc.file}, env)
		if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "-addr") {
			t.Errorf("serve with --upstream-token-file %s: %v, want a usage error saying %q, naming no address flag", tc.file, err, tc.want)
		}
	}
}
