package planner

import (
	"context"
	"errors"
	"fmt"

	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/platform/apperr"
)

// modelError turns a gateway error into a domain error: a model that kept
// failing is Unavailable (retry later); a request the provider refuses
// (bad key, unknown model, prompt too long) is a FailedPrecondition of the
// endpoint's configuration. Context errors pass through.
func modelError(model string, err error) error {
	var (
		exhausted *llm.ExhaustedError
		status    *llm.StatusError
	)
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.As(err, &exhausted):
		return &apperr.UnavailableError{Reason: fmt.Sprintf("model %s: %v", model, err)}
	case errors.As(err, &status) && !status.Retryable():
		return &apperr.PreconditionError{Reason: fmt.Sprintf("model %s refused the request: %v", model, err)}
	}
	return &apperr.UnavailableError{Reason: fmt.Sprintf("model %s: %v", model, err)}
}
