package orchestrator_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/runs/work"
)

// cappedExecutor runs the baseline of solver "std" into its spend cap at
// once (calling capped first); the other solver's stream ends only with
// the call's context.
type cappedExecutor struct {
	failingExecutor
	capped func() // called when std meets its cap
}

func (e cappedExecutor) RunBaseline(ctx context.Context, req *triagev1.RunBaselineRequest, _ ...grpc.CallOption) (grpc.ServerStreamingClient[triagev1.RunBaselineResponse], error) {
	if req.GetEndpoint() == "std" {
		e.capped()
		return &scriptedStream{err: &orchestrator.SpendCapError{Cap: 1, Spent: 1, Next: 0.5, Phase: "phase0_baseline", Endpoint: "std"}}, nil
	}
	return &failingStream{ctx: ctx}, nil
}

// scriptedStream ends with err.
type scriptedStream struct {
	grpc.ServerStreamingClient[triagev1.RunBaselineResponse]
	err error
}

func (s *scriptedStream) Recv() (*triagev1.RunBaselineResponse, error) { return nil, s.err }

// drainingExecutor is cappedExecutor whose other solver's stream ends
// Canceled once stop closes, as an in-process Executor's that drained.
type drainingExecutor struct {
	cappedExecutor
	stop <-chan struct{}
}

func (e drainingExecutor) RunBaseline(ctx context.Context, req *triagev1.RunBaselineRequest, opts ...grpc.CallOption) (grpc.ServerStreamingClient[triagev1.RunBaselineResponse], error) {
	if req.GetEndpoint() == "std" {
		return e.cappedExecutor.RunBaseline(ctx, req, opts...)
	}
	return &stoppedStream{stop: e.stop, ctx: ctx}, nil
}

// stoppedStream ends Canceled when stop closes or the call's context ends.
type stoppedStream struct {
	grpc.ServerStreamingClient[triagev1.RunBaselineResponse]
	stop <-chan struct{}
	ctx  context.Context
}

func (s *stoppedStream) Recv() (*triagev1.RunBaselineResponse, error) {
	select {
	case <-s.stop:
		return nil, status.Error(codes.Canceled, "the baseline was stopped")
	case <-s.ctx.Done():
		return nil, status.Error(codes.Canceled, "context canceled")
	}
}

// TestBaselineKeepsTheCapOfAStoppedRun: a solver stopped by its spend cap
// is reported however the baseline then ends — drained, cancelled by the
// caller — besides how it ended.
func TestBaselineKeepsTheCapOfAStoppedRun(t *testing.T) {
	cfg := writeFixture(t, t.TempDir(), "http://127.0.0.1:1/v1")
	cfg.Solvers = []orchestrator.Solver{{Model: "m", Mode: "standard", Endpoint: "std"}, {Model: "m", Mode: "extended", Endpoint: "ext"}}
	signal := errors.New("interrupt signal received")
	t.Run("drained", func(t *testing.T) {
		stop := make(chan struct{})
		var once sync.Once
		exec := drainingExecutor{cappedExecutor: cappedExecutor{capped: func() { once.Do(func() { close(stop) }) }}, stop: stop}
		_, err := orchestrator.RunBaseline(context.Background(), cfg, exec, orchestrator.BaselineOptions{Stop: stop}, &work.Progress{})
		if !errors.Is(err, work.ErrStopped) {
			t.Errorf("baseline: %v, want it drained", err)
		}
		if _, ok := errors.AsType[*orchestrator.SpendCapError](err); !ok {
			t.Errorf("baseline: %v, want the capped solver's error too", err)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancelCause(context.Background())
		defer cancel(nil)
		exec := cappedExecutor{capped: func() { cancel(signal) }}
		_, err := orchestrator.RunBaseline(ctx, cfg, exec, orchestrator.BaselineOptions{}, &work.Progress{})
		if !errors.Is(err, signal) {
			t.Errorf("baseline: %v, want the cancellation's cause", err)
		}
		if _, ok := errors.AsType[*orchestrator.SpendCapError](err); !ok {
			t.Errorf("baseline: %v, want the capped solver's error too", err)
		}
	})
}
