package gateway_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
)

// refusingOracle answers every ComputeReferences with err.
type refusingOracle struct {
	triagev1.UnimplementedOracleServiceServer
	err error
}

func (o refusingOracle) ComputeReferences(context.Context, *triagev1.ComputeReferencesRequest) (*triagev1.ComputeReferencesResponse, error) {
	return nil, o.err
}

// TestRetryAfter: a refusal that says when to retry (a rate limit's
// ResourceExhausted with a RetryInfo) gets the Retry-After header HTTP
// clients' retry logic reads, in whole seconds rounded up; one that does
// not say gets none.
func TestRetryAfter(t *testing.T) {
	limited, err := status.New(codes.ResourceExhausted, "the caller's rate limit").WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(1500 * time.Millisecond)})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"rate limited", limited.Err(), "2"},
		{"no retry info", status.Error(codes.ResourceExhausted, "the answer is too large"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			conn := startRaw(t, func(s *grpc.Server) { triagev1.RegisterOracleServiceServer(s, refusingOracle{err: tt.err}) })
			srv := serveGateway(t, conn)
			resp, err := srv.Client().Post(srv.URL+"/v1/oracle:computeReferences", "application/json", strings.NewReader(`{}`))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != tt.want {
				t.Errorf("HTTP %d, Retry-After %q; want 429 and %q", resp.StatusCode, resp.Header.Get("Retry-After"), tt.want)
			}
		})
	}
}
