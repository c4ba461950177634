package llm

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// outcome is the result of one attempt.
type outcome struct {
	resp Response
	err  error
	// retry says err is transient: 408, 429, 5xx, a timeout, a lost
	// connection or a malformed 2xx body.
	retry bool
	// wait, when hasWait, is the Retry-After the server asked for.
	wait    time.Duration
	hasWait bool
}

// attempt sends w once, within Endpoint.Timeout, and classifies the result.
func (c *Client) attempt(ctx context.Context, w *wireRequest) outcome {
	body, err := w.body()
	if err != nil {
		return outcome{err: fmt.Errorf("encoding request body: %w", err)}
	}
	actx, cancel := context.WithTimeout(ctx, c.ep.Timeout)
	defer cancel()
	x := &exchange{request: body}
	start := c.opts.now()
	_, err = c.api.CreateChatCompletion(withExchange(actx, x), w.shell())
	end := c.opts.now()
	switch {
	case ctx.Err() != nil:
		// The caller gave up: not the provider's fault, never retried.
		return outcome{err: context.Cause(ctx)}
	case !x.sent:
		// go-openai refused the request before sending it.
		return outcome{err: fmt.Errorf("building request: %w", err)}
	case x.status == 0 || x.readErr != nil:
		if errors.Is(actx.Err(), context.DeadlineExceeded) {
			return outcome{err: &TimeoutError{After: c.ep.Timeout, Err: err}, retry: true}
		}
		return outcome{err: &ConnectionError{Err: err}, retry: true}
	case x.status < 200 || x.status > 299:
		se := newStatusError(x.status, x.body)
		se.RetryAfter, se.HasRetryAfter = parseRetryAfter(x.retryAfter, end)
		return outcome{err: se, retry: se.Retryable(), wait: se.RetryAfter, hasWait: se.HasRetryAfter}
	case err != nil:
		// go-openai failed after a 2xx, though the transport gave it
		// nothing to decode: reported as the body's fault, as it was when
		// go-openai decoded it.
		return outcome{err: &MalformedResponseError{Reason: err.Error(), Body: snippet(x.body)}, retry: true}
	}
	resp, err := parseResponse(x.body)
	if err != nil {
		return outcome{err: err, retry: true}
	}
	resp.Latency = end.Sub(start)
	resp.ObtainedAt = end
	return outcome{resp: resp}
}
