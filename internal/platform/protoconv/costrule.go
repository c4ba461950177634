package protoconv

import (
	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/protocol/costrule"
)

// costRules maps every rule to its API value; costrule.Unknown is the
// unspecified value.
var costRules = map[costrule.Rule]triagev1.CostRule{
	costrule.Unknown:                 triagev1.CostRule_COST_RULE_UNSPECIFIED,
	costrule.Completion:              triagev1.CostRule_COST_RULE_COMPLETION,
	costrule.TotalMinusPrompt:        triagev1.CostRule_COST_RULE_TOTAL_MINUS_PROMPT,
	costrule.CompletionPlusReasoning: triagev1.CostRule_COST_RULE_COMPLETION_PLUS_REASONING,
	costrule.None:                    triagev1.CostRule_COST_RULE_NONE,
	costrule.HarnessOutput:           triagev1.CostRule_COST_RULE_HARNESS_OUTPUT,
}

// CostRuleToProto returns the API value of r; a name that is not a rule
// gives the unspecified value (unknown).
func CostRuleToProto(r costrule.Rule) triagev1.CostRule { return costRules[r] }

// CostRuleFromProto returns the rule of an API value: unspecified is
// costrule.Unknown, and a value this build does not know keeps its number as
// its name (e.g. "9"), which the store rejects naming it.
func CostRuleFromProto(c triagev1.CostRule) costrule.Rule {
	if r, ok := reverse(costRules, c); ok {
		return r
	}
	return costrule.Rule(c.String())
}
