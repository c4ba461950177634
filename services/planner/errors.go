package planner

import (
	"context"
	"errors"
	"fmt"

	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/platform/apperr"
)

// modelError turns a gateway error into a domain error: a model that kept
// failing (or never answered) is Unavailable (retry later); a request the
// provider refuses (bad key, unknown model, prompt too long) is a
// FailedPrecondition of the endpoint's configuration. The caller's own
// cancellation or deadline comes back as such, and so does a call the
// gateway did not send because it drains (llm.ErrNotSent, a Canceled). A named endpoint (name set),
// which the server's operator configured, is described with llm.Describe:
// the status, the provider's error code and message, why a connection
// failed — never its address. An inline endpoint (name empty) is
// described through llm.Reason only — the status, the provider's error
// code, the timeout — never the provider's body or message, which for an
// inline endpoint is whatever the host it points at chose to answer.
func modelError(ctx context.Context, name, model string, err error) error {
	what, describe := fmt.Sprintf("model %s", model), llm.Reason
	if name != "" {
		what, describe = fmt.Sprintf("endpoint %q (model %s)", name, model), llm.Describe
	}
	var status *llm.StatusError
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, llm.ErrNotSent):
		// Not sent because the gateway drains (the caller stopping): a
		// Canceled the caller leaves for its next run, not a failure.
		return fmt.Errorf("%s: %w", what, err)
	case errors.As(err, new(*llm.ExhaustedError)):
		return &apperr.UnavailableError{Reason: fmt.Sprintf("%s: %s", what, describe(err))}
	case errors.As(err, &status) && !status.Retryable():
		return &apperr.PreconditionError{Reason: fmt.Sprintf("%s refused the request: %s", what, describe(err))}
	}
	return &apperr.UnavailableError{Reason: fmt.Sprintf("%s: %s", what, describe(err))}
}
