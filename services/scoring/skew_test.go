package scoring_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/services/executor"
	"github.com/triage-eval/triage/services/oracle"
	"github.com/triage-eval/triage/services/scoring"
)

// olderExecutor answers ExecutePlan as an Executor built before
// ExecutePlanRequest.include_pool_items did: proto3 drops the unknown
// field, so the answer carries no pool items and no version stamp.
type olderExecutor struct{ scoring.Executor }

func (o olderExecutor) ExecutePlan(ctx context.Context, req *triagev1.ExecutePlanRequest) (*triagev1.ExecutePlanResponse, error) {
	resp, err := o.Executor.ExecutePlan(ctx, req)
	if resp != nil {
		resp.PoolItems, resp.Version = nil, nil
	}
	return resp, err
}

// TestStoredPoolFromAnOlderExecutorIsAnError: during a rolling update a
// Scoring service may call an Executor older than itself. Such an
// Executor ignores include_pool_items; the pool came back empty and the
// plan was scored on it, as a degenerate pool with η = 1 under both
// regimes and every step dropped as an unknown id: a wrong score, and a
// perfect one, answered OK. It must be an error that says why.
func TestStoredPoolFromAnOlderExecutorIsAnError(t *testing.T) {
	st, err := groundtruth.Open(context.Background(), filepath.Join(t.TempDir(), "gt.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	exec := executor.New(st, time.Now)
	conn := servertest.Start(t, nil,
		server.Service{Name: "executor", Desc: &triagev1.ExecutorService_ServiceDesc, Impl: exec},
		server.Service{Name: "scoring", Desc: &triagev1.ScoringService_ServiceDesc, Impl: scoring.New(olderExecutor{scoring.LocalExecutor(exec)}, scoring.LocalOracle(oracle.NewService()), scoring.Options{Workers: 2})},
	)
	importRecords(t, triagev1.NewExecutorServiceClient(conn), record("p1", 100, true, true), record("p2", 200, false, true))
	req := &triagev1.ScorePlanRequest{
		Pool:    &triagev1.ScorePlanRequest_Stored{Stored: &triagev1.StoredPool{Solver: qwen, Dataset: "aime", ProblemIds: []string{"p1", "p2"}}},
		Budgets: []*triagev1.Budget{alpha(1)},
		Plan:    steps("p1", 100),
	}
	resp, err := triagev1.NewScoringServiceClient(conn).ScorePlan(context.Background(), req)
	if err == nil {
		t.Fatalf("scored on an empty pool: pool size %d, η %v; want an error", resp.GetPoolSize(), resp.GetScores()[0].GetRegimes()[0].GetEta())
	}
	if st := status.Convert(err); st.Code() != codes.FailedPrecondition || !strings.Contains(st.Message(), "include_pool_items") {
		t.Errorf("error = %v; want FailedPrecondition naming include_pool_items", err)
	}
}
