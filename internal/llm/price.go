package llm

import (
	"math"

	"github.com/triage-eval/triage/internal/platform/apperr"
)

// Price is what an endpoint's provider charges, in US dollars per million
// tokens. It is the one home of a call's cost in dollars: the pessimistic
// cost a quote and a spend cap reserve before a call (Pessimistic), and
// what a call's usage cost (Dollars; Batched for a batch's answers).
type Price struct {
	// InputPerMTok is the price of a million prompt tokens.
	InputPerMTok float64
	// OutputPerMTok is the price of a million output tokens, reasoning
	// included.
	OutputPerMTok float64
	// BatchFactor is the share of these prices a call answered through the
	// endpoint's Batch API is charged (Batched); nil means
	// DefaultBatchFactor.
	BatchFactor *float64
}

// DefaultBatchFactor is the share of the synchronous price OpenAI's Batch
// API charges (half; Anthropic's Message Batches and Gemini's batch mode
// charge the same); an endpoint whose provider differs says so with
// "batch_factor".
const DefaultBatchFactor = 0.5

// Batched is p as a call answered through the Batch API is charged: both
// prices times BatchFactor.
func (p Price) Batched() Price {
	f := DefaultBatchFactor
	if p.BatchFactor != nil {
		f = *p.BatchFactor
	}
	return Price{InputPerMTok: p.InputPerMTok * f, OutputPerMTok: p.OutputPerMTok * f, BatchFactor: p.BatchFactor}
}

// validate adds a violation per price field that is not a finite number
// ≥ 0; field prefixes the names ("price").
func (p Price) validate(v *apperr.Violations, field string) {
	for _, f := range []struct {
		name string
		x    float64
	}{{"input_per_mtok", p.InputPerMTok}, {"output_per_mtok", p.OutputPerMTok}} {
		if math.IsNaN(f.x) || math.IsInf(f.x, 0) || f.x < 0 {
			v.Add(field+"."+f.name, "must be a finite number ≥ 0 (dollars per million tokens), got %v", f.x)
		}
	}
	if f := p.BatchFactor; f != nil && (math.IsNaN(*f) || *f < 0 || *f > 1) {
		v.Add(field+".batch_factor", "must be in [0, 1] (the share of the price a batched call is charged), got %v", *f)
	}
}

// Dollars is the cost of inputTokens prompt tokens and outputTokens output
// tokens at p.
func (p Price) Dollars(inputTokens, outputTokens int64) float64 {
	return (float64(inputTokens)*p.InputPerMTok + float64(outputTokens)*p.OutputPerMTok) / 1e6
}

// Pessimistic is the most a call can cost: its prompt's tokens at the input
// price plus maxOutputTokens, its output bound, at the output price. ok is
// false when the call has no output bound (maxOutputTokens ≤ 0): its cost is
// then unbounded.
func (p Price) Pessimistic(inputTokens, maxOutputTokens int64) (dollars float64, ok bool) {
	if maxOutputTokens <= 0 {
		return math.Inf(1), false
	}
	return p.Dollars(inputTokens, maxOutputTokens), true
}

// EstimateTokens approximates the tokens of a prompt without a tokenizer:
// one token per four bytes of UTF-8, rounded up, plus the chat template's
// few tokens per message (messageOverhead). BPE tokenizers of current
// models average 3.5 to 4.5 bytes per token on English prose and more on
// code; the figure is a quote's, not a bill's (the bill reads the
// provider's usage).
func EstimateTokens(req Request) int64 {
	var n int64
	for _, m := range req.Messages {
		n += (int64(len(m.Content))+3)/4 + messageOverhead
	}
	return n
}

// messageOverhead is the tokens a chat template adds per message (role
// markers and separators; OpenAI documents 3 to 4).
const messageOverhead = 4

// MaxOutput is the output token bound of req on its client's endpoint
// (Endpoint.MaxOutput).
func (c *Client) MaxOutput(req Request) int64 { return c.ep.MaxOutput(req) }

// MaxOutput is the output token bound of req on e: req.MaxOutputTokens
// when set, else e.MaxOutputTokens (what the body's limit field carries);
// 0 means no bound.
func (e Endpoint) MaxOutput(req Request) int64 {
	if req.MaxOutputTokens > 0 {
		return int64(req.MaxOutputTokens)
	}
	return int64(e.MaxOutputTokens)
}

// Pessimistic is the most req can cost on e (Price.Pessimistic of its
// estimated prompt tokens and its output bound); ok is false when e has no
// price or req no output bound.
func (e Endpoint) Pessimistic(req Request) (dollars float64, ok bool) {
	if e.Price == nil {
		return 0, false
	}
	return e.Price.Pessimistic(EstimateTokens(req), e.MaxOutput(req))
}
