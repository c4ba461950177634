package fakemodel

import (
	"encoding/json"

	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/llm/llmtest"
)

// Request is what a fake model reads of a recorded chat request.
type Request struct {
	// Model is the model the request names.
	Model string `json:"model"`
	// Messages are the chat messages, in order.
	Messages []llm.Message `json:"messages"`
	// ChatTemplateKwargs holds the Qwen-style thinking switch.
	ChatTemplateKwargs struct {
		EnableThinking bool `json:"enable_thinking"`
	} `json:"chat_template_kwargs"`
}

// Parse decodes the body of r; a body that is not a chat request gives a
// Request without messages.
func Parse(r llmtest.Recorded) Request {
	var q Request
	_ = json.Unmarshal(r.Body, &q)
	return q
}

// Prompt returns the content of the last message ("" without messages):
// the planner's or the solver's prompt.
func (q Request) Prompt() string {
	if len(q.Messages) == 0 {
		return ""
	}
	return q.Messages[len(q.Messages)-1].Content
}

// Thinking reports whether the request asks for thinking (extended mode
// of a Qwen-family endpoint).
func (q Request) Thinking() bool { return q.ChatTemplateKwargs.EnableThinking }

// IsProbe reports whether the request is the endpoint check's probe
// (llm.ProbePrompt).
func (q Request) IsProbe() bool { return q.Prompt() == llm.ProbePrompt }

// ProbeThen is a handler option that answers the endpoint check's probe
// with "OK" and every other request with reply().
func ProbeThen(reply func() llmtest.Reply) llmtest.Option {
	return llmtest.WithHandler(func(_ int, r llmtest.Recorded) llmtest.Reply {
		if Parse(r).IsProbe() {
			return llmtest.OK("OK")
		}
		return reply()
	})
}
