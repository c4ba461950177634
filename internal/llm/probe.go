package llm

import (
	"context"
	"time"
)

// Probe settings.
const (
	// ProbePrompt is the one message a probe sends.
	ProbePrompt = "Reply with the single word OK."
	// ProbeTimeout bounds a probe, every attempt included, unless the
	// endpoint's TotalTimeout is shorter: a server that accepts the
	// connection and never answers is reported in minutes, not after
	// MaxAttempts × Timeout.
	ProbeTimeout = 2 * time.Minute
	// probeMaxOutputTokens is a probe's output limit: any model can start
	// an answer in it, and it costs next to nothing.
	probeMaxOutputTokens = 16
)

// Probe makes the smallest useful call — ProbePrompt, at most 16 output
// tokens, never answered from the cache — with the endpoint's retries,
// within ProbeTimeout (or the endpoint's shorter TotalTimeout), and
// returns nil when the endpoint answered with a chat completion, whatever
// it says (a reasoning model cut at the limit answered too). It tells,
// before any work, what every call would meet: a server that is down, a
// key it refuses, a model it does not serve. Errors are Complete's, an
// *EndpointError naming the endpoint; Describe says them to the endpoint's
// operator.
func (c *Client) Probe(ctx context.Context) error {
	w, err := buildWire(c.ep, c.extraBody, Request{
		Messages:        []Message{{Role: RoleUser, Content: ProbePrompt}},
		MaxOutputTokens: probeMaxOutputTokens,
	})
	if err != nil {
		return c.wrap(err)
	}
	within := ProbeTimeout
	if c.ep.TotalTimeout > 0 {
		within = min(within, c.ep.TotalTimeout)
	}
	r, err := c.sendWithin(ctx, &w, within)
	if err != nil {
		c.metrics.call(ctx, outcomeFailed, nil)
		return c.wrap(err)
	}
	c.metrics.call(ctx, outcomeAnswered, &r)
	return nil
}
