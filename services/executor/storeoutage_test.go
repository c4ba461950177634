package executor_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/pgtest"
	"github.com/triage-eval/triage/services/executor"
)

// TestStoreOutageIsUnavailable: with its PostgreSQL ground-truth store cut
// off, the Executor answers Unavailable, saying the store is not answering
// (a caller retries it), and its log line keeps the driver's error, which
// the caller does not get; it answered Internal "internal error" with no
// cause anywhere.
func TestStoreOutageIsUnavailable(t *testing.T) {
	location, proxy := pgtest.Proxied(t)
	st, err := groundtruth.Open(context.Background(), location)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	logs := &servertest.LogBuffer{}
	conn := servertest.Start(t, logs, server.Service{Name: "executor", Desc: &triagev1.ExecutorService_ServiceDesc, Impl: executor.New(st, time.Now)})
	c := triagev1.NewExecutorServiceClient(conn)
	ctx := context.Background()
	if _, err := c.ListGroundTruth(ctx, &triagev1.ListGroundTruthRequest{}); err != nil {
		t.Fatalf("before the outage: %v", err)
	}
	proxy.Cut()
	_, err = c.ListGroundTruth(ctx, &triagev1.ListGroundTruthRequest{})
	if st := status.Convert(err); st.Code() != codes.Unavailable || !strings.Contains(st.Message(), "ground-truth store is not answering") {
		t.Fatalf("during the outage: %v, want Unavailable saying the store is not answering", err)
	}
	if strings.Contains(status.Convert(err).Message(), "127.0.0.1") {
		t.Errorf("the caller was told the store's address: %v", err)
	}
	if !strings.Contains(logs.String(), "cause, not sent to the caller") {
		t.Errorf("the server's log does not keep the cause:\n%s", logs)
	}
	proxy.Restore()
}
