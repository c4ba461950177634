package orchestrator

import (
	"context"
	"sync/atomic"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/planning/plancall"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/internal/runs/work"
)

// WithdrawQueued returns client, a remote Planner's client over conn, made
// to honour a drain as the in-process Planner does (planner.Config.Drain):
// once stop closes, a CreatePlan call whose model call the Planner has not
// yet dispatched — it is queued for its endpoint's concurrency slot — is
// withdrawn (cancelled; the run gives its cell back, work.Options.Stop),
// and one already dispatched is waited for. It knows which is which from
// plancall.DispatchedHeader, which it relies on only once the Planner has
// announced it in a ListEndpoints answer (the run's preflight asks for
// one): before that, or with a Planner that does not announce it, every
// call runs as without it. (A header still on its way when stop closes is
// not waited for: that call, dispatched at the last moment, is withdrawn
// too.) A nil stop gives client back.
func WithdrawQueued(client triagev1.PlannerServiceClient, conn grpc.ClientConnInterface, stop <-chan struct{}) triagev1.PlannerServiceClient {
	if stop == nil {
		return client
	}
	return &withdrawingPlanner{PlannerServiceClient: client, conn: conn, stop: stop}
}

// withdrawingPlanner is WithdrawQueued's client.
type withdrawingPlanner struct {
	triagev1.PlannerServiceClient
	conn grpc.ClientConnInterface
	stop <-chan struct{}
	// announces is set once a ListEndpoints answer announced the header.
	announces atomic.Bool
	// headerSeen, when set (by tests), is called when a call's header came.
	headerSeen func()
}

// errWithdrawn is the error of a withdrawn call: Canceled, which the run
// reads as a call not sent (StopOutcome).
var errWithdrawn = status.Error(codes.Canceled, "withdrawn before its model call was sent: the run is draining")

// ListEndpoints implements triagev1.PlannerServiceClient, reading whether
// the Planner announces DispatchedHeader.
func (w *withdrawingPlanner) ListEndpoints(ctx context.Context, req *triagev1.ListEndpointsRequest, opts ...grpc.CallOption) (*triagev1.ListEndpointsResponse, error) {
	var header metadata.MD
	resp, err := w.PlannerServiceClient.ListEndpoints(ctx, req, append(opts, grpc.Header(&header))...)
	if err == nil && len(header.Get(plancall.AnnouncesDispatchHeader)) > 0 {
		w.announces.Store(true)
	}
	return resp, err
}

// CreatePlan implements triagev1.PlannerServiceClient: the unary call made
// as a stream, so that its header is seen before its answer.
func (w *withdrawingPlanner) CreatePlan(ctx context.Context, req *triagev1.CreatePlanRequest, opts ...grpc.CallOption) (*triagev1.CreatePlanResponse, error) {
	if !w.announces.Load() {
		return w.PlannerServiceClient.CreatePlan(ctx, req, opts...)
	}
	callCtx, cancel := context.WithCancel(metadata.AppendToOutgoingContext(ctx, plancall.WantDispatchedHeader, "1"))
	defer cancel()
	stream, err := w.conn.NewStream(callCtx, &grpc.StreamDesc{StreamName: "CreatePlan"}, triagev1.PlannerService_CreatePlan_FullMethodName, opts...)
	if err != nil {
		return nil, err
	}
	if err := stream.SendMsg(req); err != nil {
		return nil, w.finish(stream, err)
	}
	if err := stream.CloseSend(); err != nil {
		return nil, err
	}
	headed := make(chan struct{}) // closed once the header came, or the call ended
	var dispatched bool           // set before headed closes
	go func() {
		md, err := stream.Header() // its error is RecvMsg's
		dispatched = err == nil && len(md.Get(plancall.DispatchedHeader)) > 0
		close(headed)
		if w.headerSeen != nil {
			w.headerSeen()
		}
	}()
	select {
	case <-headed:
	case <-ctx.Done():
	case <-w.stop:
		select {
		case <-headed: // came with the stop: the call was dispatched, or answered
		default:
			cancel()
			<-headed
			return nil, errWithdrawn
		}
	}
	resp := new(triagev1.CreatePlanResponse)
	if err := stream.RecvMsg(resp); err != nil {
		<-headed
		if dispatched && status.Code(err) == codes.Unavailable && ctx.Err() == nil && !work.Stopping(w.stop) && !grpcerr.NoRetry(stream.Trailer()) {
			// The Planner went away after dispatching the call (a
			// restart). Its header committed the call (gRFC A6), past
			// gRPC's retry policy, which would otherwise have sent it
			// again: it is sent again as a plain call, which that policy
			// covers.
			return w.PlannerServiceClient.CreatePlan(ctx, req, opts...)
		}
		return nil, err
	}
	return resp, nil
}

// finish returns the error of a stream whose message could not be sent:
// io.EOF from SendMsg means the call ended, and RecvMsg has its status.
func (w *withdrawingPlanner) finish(stream grpc.ClientStream, err error) error {
	if rerr := stream.RecvMsg(new(triagev1.CreatePlanResponse)); rerr != nil {
		return rerr
	}
	return err
}
