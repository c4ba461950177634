package executor

import (
	"context"
	"errors"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/phase0/solving"
	"github.com/triage-eval/triage/internal/platform/apperr"
)

// prefill sends the calls of pending through the endpoint's Batch API into
// the response cache (llm.Client.Prefill) and reports what the batches
// did, marking each job a batch answered (job.batch); solveAll then finds
// every batched answer in the cache, so the records are those of the
// synchronous path, and sends the rest one by one.
func (s *Service) prefill(ctx context.Context, c *llm.Client, pending []job, send func(*triagev1.RunBaselineResponse) error) error {
	reqs := make([]llm.Request, 0, len(pending))
	of := make([]int, 0, len(pending)) // the job of each request
	for i, j := range pending {
		if req, err := solving.Request(j.Problem, 0, j.Sample); err == nil {
			reqs = append(reqs, req)
			of = append(of, i)
		}
	}
	// A drain (Baseline.Stop) ends the wait for the batches, not their
	// submission; they stay recorded for the next call, and RunBaseline
	// ends with StopError.
	o := s.baseline.Batch
	o.Stop = s.baseline.Stop
	rep, err := c.Prefill(ctx, reqs, o)
	if err != nil && stopped(s.baseline.Stop) && ctx.Err() == nil {
		return s.baseline.stopError()
	}
	if err != nil {
		return batchError(ctx, err)
	}
	for i, id := range rep.Answered {
		pending[of[i]].batch = id
	}
	return send(&triagev1.RunBaselineResponse{Event: &triagev1.RunBaselineResponse_Batch{Batch: &triagev1.BaselineBatch{
		BatchIds: rep.Batches, Requests: int32(rep.Requests), Cached: int32(rep.Cached), Resumed: int32(rep.Resumed),
		Submitted: int32(rep.Submitted), Stored: int32(rep.Stored), Missing: int32(rep.Missing), Warning: clip(rep.Warning(), maxExtracted),
		Unreported: int32(rep.Unreported),
	}}})
}

// batchError maps a Prefill error for the caller: a precondition (no batch
// API, no cache) as it is; batches still running, or a Batch API call that
// failed, as Unavailable with llm.Describe's reason (never an address):
// the batches stay stored and the next call resumes them.
func batchError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	if _, ok := errors.AsType[*apperr.PreconditionError](err); ok {
		return err
	}
	if we, ok := errors.AsType[*llm.BatchWaitError](err); ok {
		return &apperr.UnavailableError{Reason: we.Error()}
	}
	return &apperr.UnavailableError{Reason: "batch Phase 0: " + llm.Describe(err) + "; submitted batches are resumed by the next call"}
}
