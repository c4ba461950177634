package llm

import (
	"context"
	"errors"
	"net/http"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"
)

// The gateway's metrics (see docs/operations.md, "Metrics"):
//
//	triage.llm.calls    {call}   endpoint, outcome (answered | cache_hit | failed)
//	triage.llm.tokens   {token}  endpoint, type (input | output): usage of answered calls;
//	                             output is the SPEC §1 output cost, reasoning included
//	triage.llm.retries  {retry}  endpoint, reason (rate_limited | server_error | timeout |
//	                             connection | malformed): attempts after a call's first
//
// Attribute sets are built once per Client, so recording allocates nothing,
// and with the default no-op meter provider it does nothing.

// Call outcomes.
const (
	outcomeAnswered = "answered"
	outcomeCacheHit = "cache_hit"
	outcomeFailed   = "failed"
)

// Retry reasons.
const (
	retryRateLimited = "rate_limited"
	retryServerError = "server_error"
	retryTimeout     = "timeout"
	retryConnection  = "connection"
	retryMalformed   = "malformed"
)

// metrics holds a Client's instruments and pre-built attribute options.
type metrics struct {
	calls, tokens, retries metric.Int64Counter
	callOpts               map[string][]metric.AddOption
	inputOpts, outputOpts  []metric.AddOption
	retryOpts              map[string][]metric.AddOption
}

// newMetrics creates the instruments of endpoint from mp (nil: no-op).
func newMetrics(mp metric.MeterProvider, endpoint string) *metrics {
	if mp == nil {
		mp = noop.NewMeterProvider()
	}
	meter := mp.Meter("github.com/triage-eval/triage/internal/llm")
	m := &metrics{callOpts: map[string][]metric.AddOption{}, retryOpts: map[string][]metric.AddOption{}}
	// Instrument creation fails only for invalid names; a failed one is a
	// no-op instrument, which is what the meter returns alongside the error.
	m.calls, _ = meter.Int64Counter("triage.llm.calls", metric.WithUnit("{call}"),
		metric.WithDescription("Model calls by outcome: answered by the endpoint, served from the response cache, or failed after the gateway's retries."))
	m.tokens, _ = meter.Int64Counter("triage.llm.tokens", metric.WithUnit("{token}"),
		metric.WithDescription("Tokens of answered (not cached) calls: input (prompt) and output (the output cost, reasoning included)."))
	m.retries, _ = meter.Int64Counter("triage.llm.retries", metric.WithUnit("{retry}"),
		metric.WithDescription("Attempts after a call's first, by the reason the previous attempt failed."))
	with := func(kv ...attribute.KeyValue) []metric.AddOption {
		return []metric.AddOption{metric.WithAttributeSet(attribute.NewSet(append([]attribute.KeyValue{attribute.String("endpoint", endpoint)}, kv...)...))}
	}
	for _, o := range []string{outcomeAnswered, outcomeCacheHit, outcomeFailed} {
		m.callOpts[o] = with(attribute.String("outcome", o))
	}
	m.inputOpts, m.outputOpts = with(attribute.String("type", "input")), with(attribute.String("type", "output"))
	for _, r := range []string{retryRateLimited, retryServerError, retryTimeout, retryConnection, retryMalformed} {
		m.retryOpts[r] = with(attribute.String("reason", r))
	}
	return m
}

// call counts one call with its outcome, and an answered call's tokens.
func (m *metrics) call(ctx context.Context, outcome string, r *Response) {
	m.calls.Add(ctx, 1, m.callOpts[outcome]...)
	if outcome == outcomeAnswered && r != nil {
		m.tokens.Add(ctx, int64(r.PromptTokens), m.inputOpts...)
		m.tokens.Add(ctx, int64(r.Cost), m.outputOpts...)
	}
}

// retry counts one retry after an attempt that failed with err.
func (m *metrics) retry(ctx context.Context, err error) {
	if !m.retries.Enabled(ctx) {
		return // classifying err allocates
	}
	m.retries.Add(ctx, 1, m.retryOpts[retryReason(err)]...)
}

// retryReason names the transient failure err is.
func retryReason(err error) string {
	var (
		status  *StatusError
		timeout *TimeoutError
		conn    *ConnectionError
	)
	switch {
	case errors.As(err, &status) && status.StatusCode == http.StatusTooManyRequests:
		return retryRateLimited
	case errors.As(err, &status):
		return retryServerError
	case errors.As(err, &timeout):
		return retryTimeout
	case errors.As(err, &conn):
		return retryConnection
	default:
		return retryMalformed
	}
}
