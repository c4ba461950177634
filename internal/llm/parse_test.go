package llm

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/protocol/costrule"
)

// TestParseProviderShapes runs each provider's response shape through a
// full call and checks every field of the Response.
func TestParseProviderShapes(t *testing.T) {
	tests := []struct {
		name  string
		reply llmtest.Reply
		want  Response
	}{{
		name: "openai_reasoning_tokens",
		reply: llmtest.OpenAI(llmtest.Completion{
			Content: "The answer is 4.", PromptTokens: 20, CompletionTokens: 300, ReasoningTokens: 256,
		}),
		want: Response{Content: "The answer is 4.", FinishReason: "stop", PromptTokens: 20,
			CompletionTokens: 300, TotalTokens: 320, ReasoningTokens: 256, Cost: 300, CostRule: costrule.Completion},
	}, {
		name: "vllm_reasoning",
		reply: llmtest.VLLM(llmtest.Completion{
			Content: "4", Reasoning: "2+2 is 4.", PromptTokens: 15, CompletionTokens: 40,
		}),
		want: Response{Content: "4", Reasoning: "2+2 is 4.", FinishReason: "stop", PromptTokens: 15,
			CompletionTokens: 40, TotalTokens: 55, Cost: 40, CostRule: costrule.Completion},
	}, {
		name: "vllm_truncated_while_thinking",
		reply: llmtest.Truncated(llmtest.VLLM, llmtest.Completion{
			Reasoning: "Let me think step by step", PromptTokens: 15, CompletionTokens: 1024,
		}),
		want: Response{Reasoning: "Let me think step by step", FinishReason: "length", Truncated: true,
			PromptTokens: 15, CompletionTokens: 1024, TotalTokens: 1039, Cost: 1024, CostRule: costrule.Completion},
	}, {
		name: "deepseek_reasoning_content",
		reply: llmtest.DeepSeek(llmtest.Completion{
			Content: "4", Reasoning: "Adding two and two.", PromptTokens: 12, CompletionTokens: 90, ReasoningTokens: 80,
		}),
		want: Response{Content: "4", Reasoning: "Adding two and two.", FinishReason: "stop", PromptTokens: 12,
			CompletionTokens: 90, TotalTokens: 102, ReasoningTokens: 80, Cost: 90, CostRule: costrule.Completion},
	}, {
		name:  "ollama_minimal_usage",
		reply: llmtest.Ollama(llmtest.Completion{Content: "4", PromptTokens: 30, CompletionTokens: 2}),
		want: Response{Content: "4", FinishReason: "stop", PromptTokens: 30, CompletionTokens: 2,
			TotalTokens: 32, Cost: 2, CostRule: costrule.Completion},
	}, {
		name:  "ollama_thinking",
		reply: llmtest.Ollama(llmtest.Completion{Content: "4", Reasoning: "hmm", PromptTokens: 30, CompletionTokens: 9}),
		want: Response{Content: "4", Reasoning: "hmm", FinishReason: "stop", PromptTokens: 30, CompletionTokens: 9,
			TotalTokens: 39, Cost: 9, CostRule: costrule.Completion},
	}, {
		// Thinking counted in the total but not in completion_tokens
		// (as Gemini's compatibility layer does): cost = total − prompt.
		name: "cost_from_total_when_completion_excludes_thinking",
		reply: llmtest.OpenAI(llmtest.Completion{
			Content: "4", PromptTokens: 100, CompletionTokens: 10, TotalTokens: 610,
		}),
		want: Response{Content: "4", FinishReason: "stop", PromptTokens: 100, CompletionTokens: 10,
			TotalTokens: 610, Cost: 510, CostRule: costrule.TotalMinusPrompt},
	}, {
		// A total below prompt + completion must not lower the cost.
		name: "cost_from_completion_when_total_is_short",
		reply: llmtest.OpenAI(llmtest.Completion{
			Content: "4", PromptTokens: 100, CompletionTokens: 50, TotalTokens: 120,
		}),
		want: Response{Content: "4", FinishReason: "stop", PromptTokens: 100, CompletionTokens: 50,
			TotalTokens: 120, Cost: 50, CostRule: costrule.Completion},
	}, {
		// Reasoning counted only in completion_tokens_details (issue 21):
		// neither completion_tokens nor the total include it, so the cost
		// is completion + reasoning, not the 86 of max(completion,
		// total − prompt).
		name: "cost_with_reasoning_outside_completion_and_total",
		reply: llmtest.ReasoningApart(llmtest.Completion{
			Content: "4", PromptTokens: 120, CompletionTokens: 86, ReasoningTokens: 7867,
		}),
		want: Response{Content: "4", FinishReason: "stop", PromptTokens: 120, CompletionTokens: 86,
			TotalTokens: 206, ReasoningTokens: 7867, Cost: 7953, CostRule: costrule.CompletionPlusReasoning},
	}, {
		name: "openai_truncated",
		reply: llmtest.Truncated(llmtest.OpenAI, llmtest.Completion{
			Content: "The answer is", PromptTokens: 5, CompletionTokens: 64, ReasoningTokens: 60,
		}),
		want: Response{Content: "The answer is", FinishReason: "length", Truncated: true, PromptTokens: 5,
			CompletionTokens: 64, TotalTokens: 69, ReasoningTokens: 60, Cost: 64, CostRule: costrule.Completion},
	}, {
		name: "both_reasoning_fields_prefers_reasoning_content",
		reply: llmtest.Raw(200, `{"choices":[{"index":0,"message":{"role":"assistant","content":"4",`+
			`"reasoning":"short","reasoning_content":"long"},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`),
		want: Response{Content: "4", Reasoning: "long", FinishReason: "stop", PromptTokens: 1,
			CompletionTokens: 2, TotalTokens: 3, Cost: 2, CostRule: costrule.Completion},
	}, {
		name: "no_usage",
		reply: llmtest.Raw(200, `{"choices":[{"index":0,"message":{"role":"assistant","content":"4"},`+
			`"finish_reason":"stop"}]}`),
		want: Response{Content: "4", FinishReason: "stop", CostRule: costrule.Completion},
	}, {
		// A reasoning model cut while thinking may send content null.
		name: "null_content",
		reply: llmtest.Raw(200, `{"choices":[{"index":0,"message":{"role":"assistant","content":null,"reasoning":"hm"},`+
			`"finish_reason":"length"}],"usage":{"prompt_tokens":1,"completion_tokens":9,"total_tokens":10}}`),
		want: Response{Reasoning: "hm", FinishReason: "length", Truncated: true, PromptTokens: 1,
			CompletionTokens: 9, TotalTokens: 10, Cost: 9, CostRule: costrule.Completion},
	}, {
		// Content as an array of parts (as go-openai's MultiContent reads
		// it) gives no text: the plan is then unparseable, not the call
		// failed.
		name: "content_parts",
		reply: llmtest.Raw(200, `{"choices":[{"index":0,"message":{"role":"assistant","content":[{"type":"text","text":"4"}]},`+
			`"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`),
		want: Response{FinishReason: "stop", PromptTokens: 1, CompletionTokens: 2, TotalTokens: 3,
			Cost: 2, CostRule: costrule.Completion},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, llmtest.WithScript(tc.reply))
			c := newTestClient(t, testEndpoint(srv), &sleeps{})
			got, err := c.Complete(context.Background(), userRequest("What is 2+2?"))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Raw, tc.reply.Body) {
				t.Errorf("Raw = %s, want the body verbatim", got.Raw)
			}
			want := tc.want
			want.Attempts, want.ObtainedAt, want.Latency = 1, testNow, 0
			got.Raw = nil
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Response =\n %+v\nwant\n %+v", got, want)
			}
		})
	}
}

func TestLatencyFromClock(t *testing.T) {
	srv := llmtest.NewServer(t)
	var calls int
	clock := func() time.Time {
		calls++
		return testNow.Add(time.Duration(calls) * 250 * time.Millisecond)
	}
	c := newTestClient(t, testEndpoint(srv), &sleeps{}, WithClock(clock))
	r, err := c.Complete(context.Background(), userRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Latency != 250*time.Millisecond || !r.ObtainedAt.Equal(testNow.Add(500*time.Millisecond)) {
		t.Errorf("Latency %s ObtainedAt %s", r.Latency, r.ObtainedAt)
	}
}

// TestParseMalformed checks that a 2xx body a Response cannot be built
// from is a *MalformedResponseError saying why.
func TestParseMalformed(t *testing.T) {
	tests := []struct{ name, body, reason string }{
		{"not_json", `{"choices":`, "invalid JSON"},
		{"trailing_data", `{"choices":[]} {}`, "invalid JSON"},
		{"no_choices", `{"choices":[]}`, "no choices"},
		{"content_number", `{"choices":[{"message":{"content":4}}]}`, "choices[0].message.content is neither a string nor an array of parts"},
		{"content_object", `{"choices":[{"message":{"content":{"text":"4"}}}]}`, "choices[0].message.content is neither a string nor an array of parts"},
		{"usage_string", `{"choices":[{"message":{"content":"4"}}],"usage":{"prompt_tokens":"1"}}`, "json: cannot unmarshal string into Go struct field"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseResponse([]byte(tc.body))
			mal, ok := errors.AsType[*MalformedResponseError](err)
			if !ok {
				t.Fatalf("parseResponse(%s) = %v, want a *MalformedResponseError", tc.body, err)
			}
			if !strings.HasPrefix(mal.Reason, tc.reason) {
				t.Errorf("Reason = %q, want it to start %q", mal.Reason, tc.reason)
			}
		})
	}
}
