package costrule

import (
	"math"
	"strings"
	"testing"
)

func TestOf(t *testing.T) {
	tests := []struct {
		name string
		u    Usage
		cost int64
		rule Rule
	}{
		// OpenAI: reasoning inside completion, total = prompt + completion.
		{"reasoning inside completion", Usage{Prompt: 20, Completion: 300, Total: 320, Reasoning: 256}, 300, Completion},
		{"no reasoning reported", Usage{Prompt: 30, Completion: 2, Total: 32}, 2, Completion},
		// Thinking in the total but not in completion_tokens.
		{"reasoning only in the total", Usage{Prompt: 100, Completion: 10, Total: 610}, 510, TotalMinusPrompt},
		// A short total never lowers the cost.
		{"total below prompt + completion", Usage{Prompt: 100, Completion: 50, Total: 120}, 50, Completion},
		// The provider of issue 21: completion and total exclude reasoning.
		{"reasoning outside completion and total", Usage{Prompt: 120, Completion: 86, Total: 206, Reasoning: 7867}, 7953, CompletionPlusReasoning},
		// Reasoning counted apart but inside the total: the same cost by
		// either branch; SPEC §1 names the reasoning branch.
		{"reasoning apart, total includes it", Usage{Prompt: 120, Completion: 86, Total: 8073, Reasoning: 7867}, 7953, CompletionPlusReasoning},
		{"reasoning equal to completion", Usage{Prompt: 5, Completion: 64, Total: 69, Reasoning: 64}, 64, Completion},
		{"tie of completion and total − prompt", Usage{Prompt: 5, Completion: 64, Total: 69}, 64, Completion},
		{"nothing reported", Usage{}, 0, Completion},
		{"absurd counts saturate", Usage{Completion: math.MaxInt64 - 1, Reasoning: math.MaxInt64}, math.MaxInt64, CompletionPlusReasoning},
		{"absurd prompt saturates", Usage{Prompt: math.MinInt64, Total: 1}, math.MaxInt64, TotalMinusPrompt},
		{"negative counts stay negative", Usage{Completion: -5, Total: -9, Reasoning: -6}, -5, Completion},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cost, rule := Of(tc.u)
			if cost != tc.cost || rule != tc.rule {
				t.Errorf("Of(%+v) = %d, %s; want %d, %s", tc.u, cost, rule, tc.cost, tc.rule)
			}
		})
	}
}

func TestRuleCheck(t *testing.T) {
	for _, r := range Rules() {
		if err := r.Check(); err != nil {
			t.Errorf("%s: %v", r, err)
		}
	}
	for _, r := range []Rule{"", "Completion", "max", "completion "} {
		err := r.Check()
		if err == nil || !strings.Contains(err.Error(), "completion_plus_reasoning") || !strings.Contains(err.Error(), `"`+string(r)+`"`) {
			t.Errorf("Check(%q) = %v; want an error listing the rules and naming the value", r, err)
		}
	}
	rs := Rules()
	rs[0] = "changed"
	if Rules()[0] != Completion {
		t.Error("Rules returned its own slice")
	}
}

func TestOfHarness(t *testing.T) {
	tests := []struct {
		name                    string
		output, reasoning, cost int64
	}{
		{"no reasoning reported", 412, 0, 412},
		{"reasoning inside the output (inspect_ai, OpenAI)", 1200, 1024, 1200},
		{"reasoning equal to the output", 64, 64, 64},
		{"reasoning outside the output", 86, 7867, 7953},
		{"absurd counts saturate", math.MaxInt64 - 1, math.MaxInt64, math.MaxInt64},
	}
	for _, tc := range tests {
		if got := OfHarness(tc.output, tc.reasoning); got != tc.cost {
			t.Errorf("%s: OfHarness(%d, %d) = %d; want %d", tc.name, tc.output, tc.reasoning, got, tc.cost)
		}
	}
}
