package orchestrator_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/runs/work"
)

// failingExecutor passes the baseline's preflight; its RunBaseline stream
// fails at once for the solver failing names, and for the others ends only
// with the call's context, as a cancelled gRPC call does.
type failingExecutor struct {
	triagev1.ExecutorServiceClient
	failing string
}

func (failingExecutor) ListGroundTruth(context.Context, *triagev1.ListGroundTruthRequest, ...grpc.CallOption) (*triagev1.ListGroundTruthResponse, error) {
	return &triagev1.ListGroundTruthResponse{}, nil
}

func (failingExecutor) CheckEndpoints(_ context.Context, req *triagev1.CheckEndpointsRequest, _ ...grpc.CallOption) (*triagev1.CheckEndpointsResponse, error) {
	resp := &triagev1.CheckEndpointsResponse{}
	for _, n := range req.GetNames() {
		mode := triagev1.SolverMode_SOLVER_MODE_STANDARD
		if n == "ext" {
			mode = triagev1.SolverMode_SOLVER_MODE_EXTENDED
		}
		resp.Checks = append(resp.Checks, &triagev1.EndpointCheck{Name: n, Configured: true, Model: "m", Mode: mode, Answered: true})
	}
	return resp, nil
}

func (e failingExecutor) RunBaseline(ctx context.Context, req *triagev1.RunBaselineRequest, _ ...grpc.CallOption) (grpc.ServerStreamingClient[triagev1.RunBaselineResponse], error) {
	return &failingStream{ctx: ctx, fail: req.GetEndpoint() == e.failing}, nil
}

type failingStream struct {
	grpc.ServerStreamingClient[triagev1.RunBaselineResponse]
	ctx  context.Context
	fail bool
}

func (s *failingStream) Recv() (*triagev1.RunBaselineResponse, error) {
	if s.fail {
		return nil, status.Error(codes.Internal, "storing aime/p1: disk full")
	}
	<-s.ctx.Done()
	return nil, status.Error(codes.Canceled, "context canceled")
}

// TestBaselineReportsTheSolverThatFailed: when one solver's baseline fails,
// the others are cancelled, and the error is the failure — whichever solver
// comes first in the config — never their "context canceled".
func TestBaselineReportsTheSolverThatFailed(t *testing.T) {
	cfg := writeFixture(t, t.TempDir(), "http://127.0.0.1:1/v1")
	cfg.Solvers = []orchestrator.Solver{{Model: "m", Mode: "standard", Endpoint: "std"}, {Model: "m", Mode: "extended", Endpoint: "ext"}}
	for _, failing := range []string{"std", "ext"} {
		_, err := orchestrator.RunBaseline(context.Background(), cfg, failingExecutor{failing: failing}, orchestrator.BaselineOptions{}, &work.Progress{})
		mode := map[string]string{"std": "standard", "ext": "extended"}[failing]
		if err == nil || !strings.HasPrefix(err.Error(), "baseline of m/"+mode+": ") || !strings.Contains(err.Error(), "disk full") || strings.Contains(err.Error(), "context canceled") {
			t.Errorf("%s failing: %v, want its failure, not the others' cancellation", failing, err)
		}
	}

	// The caller's own cancellation is reported by its cause.
	ctx, cancel := context.WithCancelCause(context.Background())
	signal := errors.New("interrupt signal received")
	cancel(signal)
	if _, err := orchestrator.RunBaseline(ctx, cfg, failingExecutor{}, orchestrator.BaselineOptions{}, &work.Progress{}); !errors.Is(err, signal) {
		t.Errorf("a cancelled baseline: %v, want the cause", err)
	}
}

// olderExecutor is an Executor of a triage without CheckEndpoints.
type olderExecutor struct{ failingExecutor }

func (olderExecutor) CheckEndpoints(context.Context, *triagev1.CheckEndpointsRequest, ...grpc.CallOption) (*triagev1.CheckEndpointsResponse, error) {
	return nil, status.Error(codes.Unimplemented, "unknown method CheckEndpoints for service triage.v1.ExecutorService")
}

// TestBaselineOnAnOlderExecutor: an Executor that cannot check its
// endpoints still runs the baseline (here, into its failure).
func TestBaselineOnAnOlderExecutor(t *testing.T) {
	cfg := writeFixture(t, t.TempDir(), "http://127.0.0.1:1/v1")
	cfg.Solvers = []orchestrator.Solver{{Model: "m", Mode: "standard", Endpoint: "std"}}
	_, err := orchestrator.RunBaseline(context.Background(), cfg, olderExecutor{failingExecutor{failing: "std"}}, orchestrator.BaselineOptions{}, &work.Progress{})
	var pre *orchestrator.PreflightError
	if errors.As(err, &pre) || err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("baseline on an older executor: %v, want it run (and fail on its stream)", err)
	}
}
