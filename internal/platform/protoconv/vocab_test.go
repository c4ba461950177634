package protoconv

import (
	"testing"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// TestVocabRoundTrips: every name has an API value and back, and the
// unspecified values map as documented.
func TestVocabRoundTrips(t *testing.T) {
	for _, r := range vocab.Regimes() {
		p := RegimeProto(r)
		if got, ok := Regime(p); p == triagev1.Regime_REGIME_UNSPECIFIED || !ok || got != r {
			t.Errorf("regime %s → %v → %s, %v", r, p, got, ok)
		}
	}
	if _, ok := Regime(triagev1.Regime_REGIME_UNSPECIFIED); ok {
		t.Error("REGIME_UNSPECIFIED names a regime")
	}
	// A strategy is the Planner's or, for a partial-information reference,
	// the Oracle's: exactly one API value.
	for _, s := range vocab.Strategies() {
		planner := StrategyProto(s) != triagev1.PlannerStrategy_PLANNER_STRATEGY_UNSPECIFIED
		p := PartialReferenceProto(s)
		got, ok := PartialReference(p)
		oracle := p != triagev1.PartialReference_PARTIAL_REFERENCE_UNSPECIFIED && ok && got == s
		if planner == oracle || oracle != s.PartialReference() {
			t.Errorf("strategy %s: planner value %v, partial reference %v → %s, %v", s, StrategyProto(s), p, got, ok)
		}
	}
	if _, ok := PartialReference(triagev1.PartialReference_PARTIAL_REFERENCE_UNSPECIFIED); ok {
		t.Error("PARTIAL_REFERENCE_UNSPECIFIED names a strategy")
	}
	for _, v := range vocab.Variants() {
		p := VariantProto(v)
		if got, ok := Variant(p); p == triagev1.PromptVariant_PROMPT_VARIANT_UNSPECIFIED || !ok || got != v {
			t.Errorf("variant %s → %v → %s, %v", v, p, got, ok)
		}
	}
	if VariantProto(vocab.NoVariant) != triagev1.PromptVariant_PROMPT_VARIANT_UNSPECIFIED {
		t.Error("NoVariant has an API value")
	}
	if got, ok := Variant(triagev1.PromptVariant_PROMPT_VARIANT_UNSPECIFIED); !ok || got != vocab.Default {
		t.Errorf("PROMPT_VARIANT_UNSPECIFIED → %s, %v; want default", got, ok)
	}
	if _, ok := Variant(99); ok {
		t.Error("an unknown API variant names a variant")
	}
}
