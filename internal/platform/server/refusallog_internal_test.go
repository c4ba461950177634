package server

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// TestAnsweredRequestsHaveTheirOwnBudget: a flood of bodies the gateway
// answers itself spends a budget of its own, so that a caller refused for
// its limits after it is still logged, and the answered lines it did not
// log are summed up apart.
func TestAnsweredRequestsHaveTheirOwnBudget(t *testing.T) {
	var buf bytes.Buffer
	var later []func()
	now := time.Unix(1e9, 0)
	r := newRefusalLog(slog.New(slog.NewJSONHandler(&buf, nil)), func() time.Time { return now },
		func(_ time.Duration, f func()) func() bool {
			later = append(later, f)
			return func() bool { return true }
		})
	ctx := context.Background()
	bad := status.Error(codes.InvalidArgument, "invalid argument: body: not valid JSON")
	for range refusalLogBurst + 10 {
		r.logAnswered(ctx, "/triage.v1.OracleService/ComputeReferences", bad)
	}
	r.log(ctx, "http", "/triage.v1.OracleService/ComputeReferences", status.Error(codes.ResourceExhausted, "the caller has 80 calls admitted"))
	for _, f := range later {
		f()
	}
	text := buf.String()
	if n := strings.Count(text, `"answered_by_gateway":true`); n != refusalLogBurst {
		t.Errorf("%d answered lines logged, want the budget's %d", n, refusalLogBurst)
	}
	if !strings.Contains(text, `"grpc.code":"ResourceExhausted"`) {
		t.Errorf("the limit refusal after the flood was not logged:\n%s", text)
	}
	if !strings.Contains(text, `"refusals_not_logged":10,"refused":"answered by the HTTP gateway itself`) {
		t.Errorf("no summary of the 10 answered lines not logged:\n%s", text)
	}
}
