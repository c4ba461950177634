package scoring

import (
	"context"
	"fmt"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/internal/platform/protoconv"
)

// ScorePlans scores a batch: each request is validated and scored alone,
// on the service's workers, and the outcomes are sent in request order.
// Only a batch that is empty or too large fails as a whole.
func (s *Service) ScorePlans(req *triagev1.ScorePlansRequest, stream grpc.ServerStreamingServer[triagev1.ScorePlansResponse]) error {
	if err := validateBatch(req); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(stream.Context())
	defer cancel()
	// pending holds the outcomes being computed, in request order; its
	// capacity bounds how far the workers run ahead of the stream.
	pending := make(chan chan *triagev1.ScorePlansResponse, 2*s.workers)
	go func() {
		defer close(pending)
		workers := make(chan struct{}, s.workers)
		for i, r := range req.GetRequests() {
			out := make(chan *triagev1.ScorePlansResponse, 1)
			select {
			case pending <- out:
			case <-ctx.Done():
				return
			}
			select {
			case workers <- struct{}{}:
			case <-ctx.Done():
				return
			}
			go func() {
				defer func() { <-workers }()
				out <- s.scoreOne(ctx, int32(i), r)
			}()
		}
	}()
	for out := range pending {
		var resp *triagev1.ScorePlansResponse
		select {
		case resp = <-out:
		case <-ctx.Done():
			return ctx.Err()
		}
		if err := send(stream, resp); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// send sends an outcome of a batch. A result over the server's message
// limit, which grpc refuses to send (ResourceExhausted) without ending the
// stream, is replaced by an error outcome saying so, so that one large
// result does not end the batch; the caller can ask for it again with less.
func send(stream grpc.ServerStreamingServer[triagev1.ScorePlansResponse], resp *triagev1.ScorePlansResponse) error {
	err := stream.Send(resp)
	if status.Code(err) != codes.ResourceExhausted || resp.GetResult() == nil {
		return err
	}
	tooLarge := status.Newf(codes.ResourceExhausted, "requests[%d]: its result cannot be sent (%s): %s",
		resp.GetIndex(), status.Convert(err).Message(), askForLess)
	return stream.Send(&triagev1.ScorePlansResponse{Index: resp.GetIndex(), Outcome: &triagev1.ScorePlansResponse_Error{Error: tooLarge.Proto()}})
}

// scoreOne is the outcome of the index-th request of a batch.
func (s *Service) scoreOne(ctx context.Context, index int32, req *triagev1.ScorePlanRequest) *triagev1.ScorePlansResponse {
	err := validateScorePlan(req)
	var resp *triagev1.ScorePlanResponse
	if err == nil {
		resp, err = s.score(ctx, req)
	}
	if err != nil {
		return &triagev1.ScorePlansResponse{Index: index, Outcome: &triagev1.ScorePlansResponse_Error{
			Error: status.Convert(grpcerr.ToStatus(err)).Proto(),
		}}
	}
	return &triagev1.ScorePlansResponse{Index: index, Outcome: &triagev1.ScorePlansResponse_Result{Result: resp}}
}

// validateBatch checks the batch as a whole: its size and its work.
func validateBatch(req *triagev1.ScorePlansRequest) error {
	var v apperr.Violations
	switch n := len(req.GetRequests()); {
	case n == 0:
		v.Add("requests", "at least one request is required")
	case n > MaxBatchRequests:
		v.Add("requests", "at most %d requests per batch, got %d", MaxBatchRequests, n)
	default:
		work := 0.0
		for _, r := range req.GetRequests() {
			work += batchWork(r)
		}
		protoconv.CheckWork(&v, "requests", fmt.Sprintf("Σ over the requests of items × budgets × samples + budgets × regimes × (items + plan steps) = %.0f", work), work, MaxBatchWork,
			"split the batch, or send fewer samples or budgets")
	}
	return v.Err()
}

// askForLess is how a caller asks for a smaller result: the options and
// budgets that grow it.
const askForLess = "ask for fewer budgets, or leave out options.include_trace and options.include_oracle_plan"

// AskForLess tells a caller whose ScorePlan answer is over the server's
// message limit what to leave out (server.LessAsker), as a batch's result
// over it says.
func (s *Service) AskForLess(string) string { return askForLess }
