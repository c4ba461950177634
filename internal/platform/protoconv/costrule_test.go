package protoconv

import (
	"testing"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/protocol/costrule"
)

// TestCostRulesCoverBothVocabularies: every rule has its own API value and
// every API value its rule, so no rule is lost on the wire.
func TestCostRulesCoverBothVocabularies(t *testing.T) {
	seen := map[triagev1.CostRule]costrule.Rule{}
	for _, r := range costrule.Rules() {
		c, ok := costRules[r]
		if !ok {
			t.Errorf("rule %q has no API value", r)
			continue
		}
		if prev, dup := seen[c]; dup {
			t.Errorf("rules %q and %q share %v", prev, r, c)
		}
		seen[c] = r
		if back := CostRuleFromProto(CostRuleToProto(r)); back != r {
			t.Errorf("%q → %v → %q", r, c, back)
		}
	}
	for n := range triagev1.CostRule_name {
		if _, ok := seen[triagev1.CostRule(n)]; !ok {
			t.Errorf("API value %v has no rule", triagev1.CostRule(n))
		}
	}
	if got := CostRuleFromProto(triagev1.CostRule(99)); got.Valid() || got != "99" {
		t.Errorf("an unknown API value gave %q; want an invalid rule naming it", got)
	}
}
