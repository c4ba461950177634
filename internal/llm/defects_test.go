package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/triage-eval/triage/internal/llm/llmtest"
)

// The tests below pin the three go-openai v1.43.0 defects the transport
// makes up for: each shows the defect with a bare go-openai client against
// the test server, then the gateway's behaviour on the same exchange. If
// an upgrade fixes a defect, its first half fails, and the workaround can
// be reconsidered.

func bareOpenAI(srv *llmtest.Server) *openai.Client {
	cfg := openai.DefaultConfig("")
	cfg.BaseURL = srv.URL()
	return openai.NewClientWithConfig(cfg)
}

func TestDefectTemperatureZeroDropped(t *testing.T) {
	srv := llmtest.NewServer(t)
	_, err := bareOpenAI(srv).CreateChatCompletion(context.Background(), openai.ChatCompletionRequest{
		Model: "m", Temperature: 0, Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var bare map[string]json.RawMessage
	if err := json.Unmarshal(srv.Requests()[0].Body, &bare); err != nil {
		t.Fatal(err)
	}
	if _, ok := bare["temperature"]; ok {
		t.Error("go-openai now sends temperature 0 by itself")
	}

	c := newTestClient(t, testEndpoint(srv), &sleeps{})
	if _, err := c.Complete(context.Background(), userRequest("hi")); err != nil {
		t.Fatal(err)
	}
	var fixed map[string]json.RawMessage
	if err := json.Unmarshal(srv.Requests()[1].Body, &fixed); err != nil {
		t.Fatal(err)
	}
	if string(fixed["temperature"]) != "0" {
		t.Errorf("gateway sent temperature %s, want 0", fixed["temperature"])
	}
}

func TestDefectRetryAfterLostInError(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithScript(llmtest.RateLimited("7"), llmtest.RateLimited("7")))
	_, err := bareOpenAI(srv).CreateChatCompletion(context.Background(), openai.ChatCompletionRequest{
		Model: "m", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}},
	})
	var apiErr *openai.APIError
	if !errors.As(err, &apiErr) || apiErr.HTTPStatusCode != http.StatusTooManyRequests {
		t.Fatalf("bare error = %#v", err)
	}
	// APIError has no header field: the only trace of Retry-After would be
	// the response value returned next to the error, which callers drop.

	ep := testEndpoint(srv)
	ep.MaxAttempts = 1
	c := newTestClient(t, ep, &sleeps{})
	_, err = c.Complete(context.Background(), userRequest("hi"))
	var se *StatusError
	if !errors.As(err, &se) || !se.HasRetryAfter || se.RetryAfter.Seconds() != 7 {
		t.Errorf("gateway error = %#v, want a *StatusError with Retry-After 7s", err)
	}
}

func TestDefectVLLMReasoningIgnored(t *testing.T) {
	reply := llmtest.VLLM(llmtest.Completion{Content: "4", Reasoning: "two and two", PromptTokens: 1, CompletionTokens: 5})
	srv := llmtest.NewServer(t, llmtest.WithScript(reply, reply))
	resp, err := bareOpenAI(srv).CreateChatCompletion(context.Background(), openai.ChatCompletionRequest{
		Model: "m", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Choices[0].Message.ReasoningContent; got != "" {
		t.Errorf("go-openai now reads vLLM's reasoning: %q", got)
	}

	c := newTestClient(t, testEndpoint(srv), &sleeps{})
	r, err := c.Complete(context.Background(), userRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Reasoning != "two and two" {
		t.Errorf("gateway Reasoning = %q", r.Reasoning)
	}
}
