package llm

import (
	"encoding/json"
	"errors"
	"math"
	"time"

	"github.com/triage-eval/triage/internal/protocol/costrule"
)

// FinishReasonLength is the finish reason of an output cut at the token
// limit.
const FinishReasonLength = "length"

// Response is the outcome of a successful call. It is what the cache
// stores, in this JSON encoding.
type Response struct {
	// Content is choices[0].message.content.
	Content string `json:"content"`
	// Reasoning is the visible thinking: choices[0].message.reasoning_content
	// (DeepSeek, older vLLM) or, when that is empty, .reasoning (vLLM,
	// Ollama). Empty when the provider does not return it (OpenAI).
	Reasoning string `json:"reasoning,omitempty"`
	// FinishReason is choices[0].finish_reason, e.g. "stop" or "length".
	FinishReason string `json:"finish_reason"`
	// Truncated reports FinishReason == "length".
	Truncated bool `json:"truncated"`
	// PromptTokens, CompletionTokens and TotalTokens are usage as reported.
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	// ReasoningTokens is usage.completion_tokens_details.reasoning_tokens,
	// 0 when not reported.
	ReasoningTokens int `json:"reasoning_tokens"`
	// Cost is the output cost c of SPEC §1, reasoning included, and
	// CostRule the branch of the rule that gave it (costrule.Of): some
	// providers leave thinking tokens out of completion_tokens but not of
	// the total, others out of both. Both are derived from the usage above,
	// for fresh and cached responses alike.
	Cost     int           `json:"cost"`
	CostRule costrule.Rule `json:"cost_rule"`
	// Latency is the duration of the successful attempt.
	Latency time.Duration `json:"latency_ns"`
	// Attempts is how many attempts the call took (1 without retries).
	Attempts int `json:"attempts"`
	// CacheHit reports that the response came from the cache; Latency,
	// Attempts and ObtainedAt are then those of the original call.
	CacheHit bool `json:"-"`
	// ObtainedAt is when the response arrived from the provider.
	ObtainedAt time.Time `json:"obtained_at"`
	// BatchID names the provider's batch that answered the request (see
	// Client.Prefill); empty for a synchronous call. A batched response has
	// Attempts 1, Latency 0 (a batch measures no time per request) and
	// ObtainedAt the batch's completion time.
	BatchID string `json:"batch_id,omitempty"`
	// Raw is the provider's response body, verbatim.
	Raw json.RawMessage `json:"raw"`
}

// setCost derives Cost and CostRule from the usage with the SPEC §1 rule.
// A cost beyond the int range (absurd usage) is capped at its maximum.
func (r *Response) setCost() {
	c, rule := costrule.Of(costrule.Usage{
		Prompt: int64(r.PromptTokens), Completion: int64(r.CompletionTokens),
		Total: int64(r.TotalTokens), Reasoning: int64(r.ReasoningTokens),
	})
	r.Cost, r.CostRule = int(min(c, math.MaxInt)), rule
}

// Measured reports whether r's usage gives an output cost (SPEC §1: c > 0,
// reasoning included). A response without usage, or reporting no output
// tokens, measures nothing: it is not gradeable ground truth, and the
// gateway does not cache it (Client.Complete, Client.Prefill), so that the
// same request asks the provider again once it reports its usage. This is
// the one place that rule is decided.
func (r Response) Measured() bool { return r.Cost > 0 }

// wireResponse is the part of a chat completion's body a Response holds.
type wireResponse struct {
	Choices []struct {
		Message struct {
			// Content is a string, null, or an array of parts (which
			// gives no text).
			Content          any     `json:"content"`
			Reasoning        *string `json:"reasoning"`
			ReasoningContent *string `json:"reasoning_content"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens            int `json:"prompt_tokens"`
		CompletionTokens        int `json:"completion_tokens"`
		TotalTokens             int `json:"total_tokens"`
		CompletionTokensDetails *struct {
			ReasoningTokens int `json:"reasoning_tokens"`
		} `json:"completion_tokens_details"`
	} `json:"usage"`
}

// parseResponse builds the Response of a 2xx answer from its raw body, in
// one pass, or returns a *MalformedResponseError.
func parseResponse(raw []byte) (Response, error) {
	// json.Unmarshal checks the whole body first and returns a
	// *json.SyntaxError exactly when it is not valid JSON: one pass, not a
	// json.Valid before it.
	var body wireResponse
	if err := json.Unmarshal(raw, &body); err != nil {
		reason := err.Error()
		if _, ok := errors.AsType[*json.SyntaxError](err); ok {
			reason = "invalid JSON"
		}
		return Response{}, &MalformedResponseError{Reason: reason, Body: snippet(raw)}
	}
	if len(body.Choices) == 0 {
		return Response{}, &MalformedResponseError{Reason: "no choices", Body: snippet(raw)}
	}
	choice := body.Choices[0]
	var content string
	switch c := choice.Message.Content.(type) {
	case string:
		content = c
	case nil, []any:
	default:
		return Response{}, &MalformedResponseError{Reason: "choices[0].message.content is neither a string nor an array of parts", Body: snippet(raw)}
	}
	u := body.Usage
	r := Response{
		Content:          content,
		FinishReason:     choice.FinishReason,
		Truncated:        choice.FinishReason == FinishReasonLength,
		PromptTokens:     u.PromptTokens,
		CompletionTokens: u.CompletionTokens,
		TotalTokens:      u.TotalTokens,
		Raw:              json.RawMessage(raw),
	}
	if d := u.CompletionTokensDetails; d != nil {
		r.ReasoningTokens = d.ReasoningTokens
	}
	r.setCost()
	m := choice.Message
	switch {
	case m.ReasoningContent != nil && *m.ReasoningContent != "":
		r.Reasoning = *m.ReasoningContent
	case m.Reasoning != nil:
		r.Reasoning = *m.Reasoning
	}
	return r, nil
}
