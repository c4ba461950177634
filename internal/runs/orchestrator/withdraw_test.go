package orchestrator

import (
	"context"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/planning/plancall"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
)

// heldPlanner answers CreatePlan once release closes; with dispatch set it
// first sends plancall.DispatchedHeader, and with announce its
// ListEndpoints announces it.
type heldPlanner struct {
	triagev1.UnimplementedPlannerServiceServer
	announce, dispatch bool
	started            chan struct{}
	release            chan struct{}
}

func (p *heldPlanner) ListEndpoints(ctx context.Context, _ *triagev1.ListEndpointsRequest) (*triagev1.ListEndpointsResponse, error) {
	if p.announce {
		_ = grpc.SetHeader(ctx, metadata.Pairs(plancall.AnnouncesDispatchHeader, "1"))
	}
	return &triagev1.ListEndpointsResponse{}, nil
}

func (p *heldPlanner) CreatePlan(ctx context.Context, _ *triagev1.CreatePlanRequest) (*triagev1.CreatePlanResponse, error) {
	if p.dispatch {
		_ = grpc.SendHeader(ctx, metadata.Pairs(plancall.DispatchedHeader, "1"))
	}
	close(p.started)
	select {
	case <-p.release:
		return &triagev1.CreatePlanResponse{RawOutput: "answered"}, nil
	case <-ctx.Done():
		return nil, status.FromContextError(ctx.Err()).Err()
	}
}

// TestWithdrawQueued: once the run stops, a call the Planner has not
// dispatched is withdrawn (Canceled) at once; a dispatched one is waited
// for and answered; a Planner that does not announce the header has every
// call waited for.
func TestWithdrawQueued(t *testing.T) {
	tests := []struct {
		name               string
		announce, dispatch bool
		wantWithdrawn      bool
	}{
		{"queued on an announcing planner", true, false, true},
		{"dispatched on an announcing planner", true, true, false},
		{"a planner that does not announce", false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &heldPlanner{announce: tt.announce, dispatch: tt.dispatch, started: make(chan struct{}), release: make(chan struct{})}
			conn := servertest.Start(t, nil, server.Service{Name: "planner", Desc: &triagev1.PlannerService_ServiceDesc, Impl: p})
			stop := make(chan struct{})
			client := WithdrawQueued(triagev1.NewPlannerServiceClient(conn), conn, stop)
			seen := make(chan struct{})
			if w, ok := client.(*withdrawingPlanner); ok {
				w.headerSeen = func() { close(seen) }
			}
			ctx := context.Background()
			if _, err := client.ListEndpoints(ctx, &triagev1.ListEndpointsRequest{}); err != nil {
				t.Fatal(err)
			}
			type result struct {
				resp *triagev1.CreatePlanResponse
				err  error
			}
			done := make(chan result, 1)
			go func() {
				resp, err := client.CreatePlan(ctx, &triagev1.CreatePlanRequest{})
				done <- result{resp, err}
			}()
			<-p.started
			if tt.dispatch {
				<-seen // the header came before the stop
			}
			close(stop)
			if !tt.wantWithdrawn {
				select {
				case r := <-done:
					t.Fatalf("the call ended before its answer: %v, %v", r.resp, r.err)
				case <-time.After(50 * time.Millisecond):
				}
				close(p.release)
			}
			var r result
			select {
			case r = <-done:
			case <-time.After(time.Minute): // only catches a hang
				t.Fatal("the call did not end")
			}
			switch {
			case tt.wantWithdrawn && status.Code(r.err) != codes.Canceled:
				t.Errorf("CreatePlan = %v, %v; want it withdrawn (Canceled)", r.resp, r.err)
			case !tt.wantWithdrawn && (r.err != nil || r.resp.GetRawOutput() != "answered"):
				t.Errorf("CreatePlan = %v, %v; want it answered", r.resp, r.err)
			}
		})
	}
}

// TestWithdrawWhileUnreachable: a call waiting for its Planner to be
// reachable (waitForReady, as the CLI's service config sets: the Planner
// restarting) is as queued as a call can be, and the stop withdraws it at
// once; it once waited until the Planner came back, then was sent.
func TestWithdrawWhileUnreachable(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	lis.Close() // nobody listens there now
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithDefaultCallOptions(grpc.WaitForReady(true)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	stop := make(chan struct{})
	w := WithdrawQueued(triagev1.NewPlannerServiceClient(conn), conn, stop).(*withdrawingPlanner)
	// As a Planner's ListEndpoints answer would have, before it went away.
	w.announces.Store(true)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // only catches a hang
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := w.CreatePlan(ctx, &triagev1.CreatePlanRequest{})
		done <- err
	}()
	close(stop)
	if err := <-done; status.Code(err) != codes.Canceled || ctx.Err() != nil {
		t.Errorf("CreatePlan = %v (context: %v); want it withdrawn (Canceled) at the stop", err, ctx.Err())
	}
}
