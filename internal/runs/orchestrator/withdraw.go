package orchestrator

import (
	"context"
	"slices"
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
	resp, err := w.PlannerServiceClient.ListEndpoints(ctx, req, slices.Concat(opts, []grpc.CallOption{grpc.Header(&header)})...)
	if err == nil && len(header.Get(plancall.AnnouncesDispatchHeader)) > 0 {
		w.announces.Store(true)
	}
	return resp, err
}

// maxSends bounds the sends of one CreatePlan call the Planner dropped
// after dispatching it: the service config's maxAttempts.
const maxSends = 5

// CreatePlan implements triagev1.PlannerServiceClient: the unary call made
// as a stream, so that its header is seen before its answer. A call the
// Planner dropped after its header (a restart) is sent again, up to
// maxSends sends in all, each withdrawable like the first.
func (w *withdrawingPlanner) CreatePlan(ctx context.Context, req *triagev1.CreatePlanRequest, opts ...grpc.CallOption) (*triagev1.CreatePlanResponse, error) {
	if !w.announces.Load() {
		return w.PlannerServiceClient.CreatePlan(ctx, req, opts...)
	}
	for send := 1; ; send++ {
		resp, dropped, err := w.send(ctx, req, opts)
		if !dropped || send == maxSends {
			return resp, err
		}
	}
}

// send makes one CreatePlan call. dropped reports that the Planner went
// away after dispatching it (Unavailable after its header): the header
// committed the call (gRFC A6), past gRPC's retry policy, which would
// otherwise have sent it again, so the caller may — unless the trailer
// says never, or the run is stopping.
func (w *withdrawingPlanner) send(ctx context.Context, req *triagev1.CreatePlanRequest, opts []grpc.CallOption) (_ *triagev1.CreatePlanResponse, dropped bool, _ error) {
	callCtx, cancel := context.WithCancelCause(metadata.AppendToOutgoingContext(ctx, plancall.WantDispatchedHeader, "1"))
	defer cancel(nil)
	headed := make(chan struct{}) // closed once the header came, or the call ended
	var dispatched atomic.Bool
	// The stop withdraws the call until its header comes: while it waits
	// for the Planner to be reachable (waitForReady), is being sent, or is
	// queued there.
	go func() {
		select {
		case <-w.stop:
			select {
			case <-headed: // came with the stop: dispatched, or answered
			default:
				cancel(errWithdrawn)
			}
		case <-headed:
		case <-callCtx.Done():
		}
	}()
	withdrawn := func(err error) error {
		if context.Cause(callCtx) == errWithdrawn {
			return errWithdrawn
		}
		return err
	}
	stream, err := w.conn.NewStream(callCtx, &grpc.StreamDesc{StreamName: "CreatePlan"}, triagev1.PlannerService_CreatePlan_FullMethodName, opts...)
	if err != nil {
		return nil, false, withdrawn(err)
	}
	if err := stream.SendMsg(req); err != nil {
		return nil, false, withdrawn(w.finish(stream, err))
	}
	if err := stream.CloseSend(); err != nil {
		return nil, false, withdrawn(err)
	}
	go func() {
		md, err := stream.Header() // its error is RecvMsg's
		dispatched.Store(err == nil && len(md.Get(plancall.DispatchedHeader)) > 0)
		close(headed)
		if w.headerSeen != nil {
			w.headerSeen()
		}
	}()
	resp := new(triagev1.CreatePlanResponse)
	if err := stream.RecvMsg(resp); err != nil {
		<-headed
		dropped = dispatched.Load() && status.Code(err) == codes.Unavailable && ctx.Err() == nil && !work.Stopping(w.stop) && !grpcerr.NoRetry(stream.Trailer())
		return nil, dropped, withdrawn(err)
	}
	return resp, false, nil
}

// finish returns the error of a stream whose message could not be sent:
// io.EOF from SendMsg means the call ended, and RecvMsg has its status.
func (w *withdrawingPlanner) finish(stream grpc.ClientStream, err error) error {
	if rerr := stream.RecvMsg(new(triagev1.CreatePlanResponse)); rerr != nil {
		return rerr
	}
	return err
}
