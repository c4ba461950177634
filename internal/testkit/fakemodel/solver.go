package fakemodel

import (
	"strings"

	"github.com/triage-eval/triage/internal/llm/llmtest"
)

// ByPrompt returns a handler for a fake solver: a request whose prompt
// contains a key of replies gets that key's reply, any other otherwise.
// No key may be part of another's prompt (the keys are tried in no
// order): end each with what ends it in the prompt, "problem p1." say.
func ByPrompt(replies map[string]llmtest.Reply, otherwise llmtest.Reply) llmtest.Handler {
	return func(_ int, r llmtest.Recorded) llmtest.Reply {
		prompt := Parse(r).Prompt()
		for text, reply := range replies {
			if strings.Contains(prompt, text) {
				return reply
			}
		}
		return otherwise
	}
}
