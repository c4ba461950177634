package costrule

import (
	"fmt"
	"math"
	"strings"
)

// Rule names the branch of the SPEC §1 cost rule that gave a stored cost.
type Rule string

// The rules. Completion, TotalMinusPrompt and CompletionPlusReasoning are
// the three branches of Of; None and Unknown say that no branch was applied.
const (
	// Completion: cost = completion_tokens, which is at least
	// total_tokens − prompt_tokens (the provider counts reasoning, if any,
	// inside completion_tokens, as OpenAI does).
	Completion Rule = "completion"
	// TotalMinusPrompt: cost = total_tokens − prompt_tokens, which exceeds
	// completion_tokens (the provider leaves reasoning out of
	// completion_tokens but counts it in the total).
	TotalMinusPrompt Rule = "total_minus_prompt"
	// CompletionPlusReasoning: cost = completion_tokens +
	// completion_tokens_details.reasoning_tokens, because reasoning_tokens
	// exceeds completion_tokens (the provider counts reasoning outside the
	// completion and outside the total).
	CompletionPlusReasoning Rule = "completion_plus_reasoning"
	// None: no cost was counted because the record is not gradeable (the
	// call failed, or its answer could not be graded); the cost is 0.
	None Rule = "none"
	// Unknown: the cost was stored without its rule, by a version of TRIAGE
	// that did not record it or by an import that did not say.
	Unknown Rule = "unknown"
	// HarnessOutput: the cost was imported from another harness's log
	// (inspect_ai, lm-evaluation-harness), which keeps no provider usage but
	// its own counts: cost = the output tokens it reports, plus its reasoning
	// tokens when those exceed the output tokens (counted outside them, the
	// CompletionPlusReasoning case); see OfHarness.
	HarnessOutput Rule = "harness_output"
)

// rules lists every Rule in a fixed order, for validation and messages.
var rules = []Rule{Completion, TotalMinusPrompt, CompletionPlusReasoning, None, Unknown, HarnessOutput}

// Rules returns every valid Rule.
func Rules() []Rule { return append([]Rule(nil), rules...) }

// Usage is the token usage a response reports.
type Usage struct {
	// Prompt, Completion and Total are usage.prompt_tokens,
	// usage.completion_tokens and usage.total_tokens.
	Prompt, Completion, Total int64
	// Reasoning is usage.completion_tokens_details.reasoning_tokens, 0 when
	// not reported.
	Reasoning int64
}

// Of returns the output cost of a response with usage u and the rule that
// gave it (SPEC §1): completion + reasoning when reasoning exceeds
// completion; otherwise max(completion, total − prompt), Completion on a
// tie. Usage is the provider's word and may be absurd: the arithmetic
// saturates at the int64 bounds instead of wrapping around, so a huge count
// never turns into a small or negative cost.
func Of(u Usage) (int64, Rule) {
	if u.Reasoning > u.Completion {
		return add(u.Completion, u.Reasoning), CompletionPlusReasoning
	}
	if d := add(u.Total, neg(u.Prompt)); d > u.Completion {
		return d, TotalMinusPrompt
	}
	return u.Completion, Completion
}

// OfHarness returns the HarnessOutput cost of a harness's counts: output,
// or output + reasoning when reasoning exceeds output (a harness, like a
// provider, may count reasoning inside its output tokens, as inspect_ai does
// for OpenAI and Anthropic models, or outside them). A harness's total is
// not used: inspect_ai's total counts cached input tokens differently per
// provider, so total − input is not an output count. Saturates like Of.
func OfHarness(output, reasoning int64) int64 {
	if reasoning > output {
		return add(output, reasoning)
	}
	return output
}

// add is a + b saturated at the int64 bounds.
func add(a, b int64) int64 {
	s := a + b
	switch {
	case a > 0 && b > 0 && s < 0:
		return math.MaxInt64
	case a < 0 && b < 0 && s >= 0:
		return math.MinInt64
	}
	return s
}

// neg is −a saturated (−MinInt64 is MaxInt64).
func neg(a int64) int64 {
	if a == math.MinInt64 {
		return math.MaxInt64
	}
	return -a
}

// Valid reports whether r is one of Rules.
func (r Rule) Valid() bool {
	for _, x := range rules {
		if r == x {
			return true
		}
	}
	return false
}

// Check returns nil for a valid r, else an error listing the valid names.
func (r Rule) Check() error {
	if r.Valid() {
		return nil
	}
	names := make([]string, len(rules))
	for i, x := range rules {
		names[i] = string(x)
	}
	return fmt.Errorf("must be one of %s, got %q", strings.Join(names, ", "), string(r))
}
