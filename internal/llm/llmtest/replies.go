package llmtest

import (
	"encoding/json"
	"net/http"
)

// Completion describes a successful answer; the shape builders below
// render it as one provider would.
type Completion struct {
	// Model echoed in the response; each builder has a default.
	Model string
	// Content is the answer text; the vLLM shape sends null when empty.
	Content string
	// Reasoning is the visible thinking, where the shape has a field.
	Reasoning string
	// FinishReason defaults to "stop".
	FinishReason string
	// PromptTokens and CompletionTokens are reported as given.
	PromptTokens, CompletionTokens int
	// TotalTokens defaults to PromptTokens + CompletionTokens; set it
	// higher to mimic providers that leave thinking tokens out of
	// completion_tokens.
	TotalTokens int
	// ReasoningTokens goes to completion_tokens_details.reasoning_tokens
	// in the shapes that report it.
	ReasoningTokens int
}

func (c Completion) finish() string {
	if c.FinishReason == "" {
		return "stop"
	}
	return c.FinishReason
}

func (c Completion) total() int {
	if c.TotalTokens == 0 {
		return c.PromptTokens + c.CompletionTokens
	}
	return c.TotalTokens
}

func (c Completion) model(def string) string {
	if c.Model == "" {
		return def
	}
	return c.Model
}

// OK is an OpenAI-shaped answer with content and small usage.
func OK(content string) Reply {
	return OpenAI(Completion{Content: content, PromptTokens: 10, CompletionTokens: 5})
}

// OpenAI renders c as api.openai.com does: refusal and annotations in the
// message, usage with prompt_tokens_details and
// completion_tokens_details.reasoning_tokens. It has no reasoning text.
func OpenAI(c Completion) Reply {
	return JSON(http.StatusOK, map[string]any{
		"id":      "chatcmpl-BfH1d2X3",
		"object":  "chat.completion",
		"created": 1750000000,
		"model":   c.model("o4-mini-2025-04-16"),
		"choices": []any{map[string]any{
			"index": 0,
			"message": map[string]any{
				"role": "assistant", "content": c.Content, "refusal": nil, "annotations": []any{},
			},
			"logprobs":      nil,
			"finish_reason": c.finish(),
		}},
		"usage": map[string]any{
			"prompt_tokens":     c.PromptTokens,
			"completion_tokens": c.CompletionTokens,
			"total_tokens":      c.total(),
			"prompt_tokens_details": map[string]any{
				"cached_tokens": 0, "audio_tokens": 0,
			},
			"completion_tokens_details": map[string]any{
				"reasoning_tokens": c.ReasoningTokens, "audio_tokens": 0,
				"accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0,
			},
		},
		"service_tier":       "default",
		"system_fingerprint": "fp_b1442291a8",
	})
}

// NoUsage renders c in OpenAI's shape without its "usage" object, as some
// compatibility layers and proxies answer: the call succeeds, but reports
// no tokens, so it measures no SPEC §1 cost (c's token counts are ignored).
func NoUsage(c Completion) Reply {
	var body map[string]any
	if err := json.Unmarshal(OpenAI(c).Body, &body); err != nil {
		panic(err) // OpenAI's body is JSON
	}
	delete(body, "usage")
	return JSON(http.StatusOK, body)
}

// ReasoningApart renders c as a provider that counts reasoning tokens
// only in usage.completion_tokens_details.reasoning_tokens: completion_tokens
// is the visible answer alone and total_tokens is prompt + completion, so
// neither includes the thinking (c.TotalTokens is ignored). The rest of the
// body is OpenAI's shape. With Completion{PromptTokens: 120,
// CompletionTokens: 86, ReasoningTokens: 7867} it reproduces the usage of
// issue 21: the output cost is 7,953 tokens, of which max(completion,
// total − prompt) sees only 86.
func ReasoningApart(c Completion) Reply {
	c.TotalTokens = c.PromptTokens + c.CompletionTokens
	if c.Model == "" {
		c.Model = "thinking-apart-1"
	}
	return OpenAI(c)
}

// VLLM renders c as vLLM's OpenAI server does with a reasoning parser:
// the thinking in message.reasoning, message.reasoning_content null,
// content null when empty, usage without details.
func VLLM(c Completion) Reply {
	var content any
	if c.Content != "" {
		content = c.Content
	}
	return JSON(http.StatusOK, map[string]any{
		"id":      "chatcmpl-9f8e7d6c5b4a",
		"object":  "chat.completion",
		"created": 1750000000,
		"model":   c.model("Qwen/Qwen3-8B"),
		"choices": []any{map[string]any{
			"index": 0,
			"message": map[string]any{
				"role": "assistant", "content": content, "refusal": nil, "annotations": nil,
				"audio": nil, "function_call": nil, "tool_calls": []any{},
				"reasoning": c.Reasoning, "reasoning_content": nil,
			},
			"logprobs":      nil,
			"finish_reason": c.finish(),
			"stop_reason":   nil,
			"token_ids":     nil,
		}},
		"service_tier":       nil,
		"system_fingerprint": nil,
		"usage": map[string]any{
			"prompt_tokens":         c.PromptTokens,
			"total_tokens":          c.total(),
			"completion_tokens":     c.CompletionTokens,
			"prompt_tokens_details": nil,
		},
		"prompt_logprobs":    nil,
		"prompt_token_ids":   nil,
		"kv_transfer_params": nil,
	})
}

// DeepSeek renders c as api.deepseek.com does: the thinking in
// message.reasoning_content, usage with reasoning_tokens and the prompt
// cache counters.
func DeepSeek(c Completion) Reply {
	return JSON(http.StatusOK, map[string]any{
		"id":      "5f0c1f0e-2a4b-4e61-9d0a-3c1b2a4d5e6f",
		"object":  "chat.completion",
		"created": 1750000000,
		"model":   c.model("deepseek-reasoner"),
		"choices": []any{map[string]any{
			"index": 0,
			"message": map[string]any{
				"role": "assistant", "content": c.Content, "reasoning_content": c.Reasoning,
			},
			"logprobs":      nil,
			"finish_reason": c.finish(),
		}},
		"usage": map[string]any{
			"prompt_tokens":     c.PromptTokens,
			"completion_tokens": c.CompletionTokens,
			"total_tokens":      c.total(),
			"prompt_tokens_details": map[string]any{
				"cached_tokens": 0,
			},
			"completion_tokens_details": map[string]any{
				"reasoning_tokens": c.ReasoningTokens,
			},
			"prompt_cache_hit_tokens":  0,
			"prompt_cache_miss_tokens": c.PromptTokens,
		},
		"system_fingerprint": "fp_5417b77867_prod0425fp8",
	})
}

// Ollama renders c as Ollama's /v1 compatibility layer does: minimal
// usage (prompt, completion, total only), message.reasoning only when
// there is thinking.
func Ollama(c Completion) Reply {
	msg := map[string]any{"role": "assistant", "content": c.Content}
	if c.Reasoning != "" {
		msg["reasoning"] = c.Reasoning
	}
	return JSON(http.StatusOK, map[string]any{
		"id":                 "chatcmpl-412",
		"object":             "chat.completion",
		"created":            1750000000,
		"model":              c.model("qwen3:8b"),
		"system_fingerprint": "fp_ollama",
		"choices": []any{map[string]any{
			"index": 0, "message": msg, "finish_reason": c.finish(),
		}},
		"usage": map[string]any{
			"prompt_tokens":     c.PromptTokens,
			"completion_tokens": c.CompletionTokens,
			"total_tokens":      c.total(),
		},
	})
}

// Truncated renders c with shape, finish_reason "length": the output hit
// the token limit.
func Truncated(shape func(Completion) Reply, c Completion) Reply {
	c.FinishReason = "length"
	return shape(c)
}

// RateLimited is OpenAI's 429; retryAfter ("2", or an HTTP-date) goes to
// the Retry-After header unless empty.
func RateLimited(retryAfter string) Reply {
	r := openAIError(http.StatusTooManyRequests, "Rate limit reached for requests", "requests", "rate_limit_exceeded")
	if retryAfter != "" {
		r.Header = http.Header{"Retry-After": {retryAfter}}
	}
	return r
}

// ServerError is a 500 with OpenAI's error body.
func ServerError() Reply {
	return openAIError(http.StatusInternalServerError, "The server had an error while processing your request.", "server_error", nil)
}

// BadRequest is a 400 with OpenAI's error body and message msg.
func BadRequest(msg string) Reply {
	return openAIError(http.StatusBadRequest, msg, "invalid_request_error", nil)
}

// Unauthorized is OpenAI's 401 for a wrong or missing API key.
func Unauthorized() Reply {
	return openAIError(http.StatusUnauthorized, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key")
}

// Hang never answers: the server holds the request until the client
// gives up.
func Hang() Reply { return Reply{Hang: true} }

// Malformed is a 200 whose JSON body is cut short, as when a proxy drops
// the end of the stream.
func Malformed() Reply {
	return Reply{Body: []byte(`{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"4`)}
}

// Raw is a reply with the given status and body, verbatim.
func Raw(status int, body string) Reply { return Reply{Status: status, Body: []byte(body)} }

// JSON is a reply with the JSON encoding of v.
func JSON(status int, v any) Reply {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // the builders only pass encodable values
	}
	return Reply{Status: status, Body: b}
}

func openAIError(status int, msg, typ string, code any) Reply {
	return JSON(status, map[string]any{"error": map[string]any{
		"message": msg, "type": typ, "param": nil, "code": code,
	}})
}
