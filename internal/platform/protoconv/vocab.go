package protoconv

import (
	"strconv"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// The API's enums for the protocol's names (package vocab), both ways:
// the one place they are paired.
var (
	regimeProtos = map[vocab.Regime]triagev1.Regime{
		vocab.Advisory: triagev1.Regime_REGIME_ADVISORY,
		vocab.Enforced: triagev1.Regime_REGIME_ENFORCED,
	}
	strategyProtos = map[vocab.Strategy]triagev1.PlannerStrategy{
		vocab.LLM:           triagev1.PlannerStrategy_PLANNER_STRATEGY_LLM,
		vocab.Random:        triagev1.PlannerStrategy_PLANNER_STRATEGY_RANDOM,
		vocab.ShortestFirst: triagev1.PlannerStrategy_PLANNER_STRATEGY_SHORTEST_FIRST,
		vocab.AllInOrder:    triagev1.PlannerStrategy_PLANNER_STRATEGY_ALL_IN_ORDER,
	}
	partialProtos = map[vocab.Strategy]triagev1.PartialReference{
		vocab.Population:      triagev1.PartialReference_PARTIAL_REFERENCE_POPULATION,
		vocab.SelfFeasibility: triagev1.PartialReference_PARTIAL_REFERENCE_SELF_FEASIBILITY,
		vocab.SelfCost:        triagev1.PartialReference_PARTIAL_REFERENCE_SELF_COST,
	}
	variantProtos = map[vocab.Variant]triagev1.PromptVariant{
		vocab.Default: triagev1.PromptVariant_PROMPT_VARIANT_DEFAULT,
		vocab.Neutral: triagev1.PromptVariant_PROMPT_VARIANT_NEUTRAL,
		vocab.Agent:   triagev1.PromptVariant_PROMPT_VARIANT_AGENT,
		vocab.Exam:    triagev1.PromptVariant_PROMPT_VARIANT_EXAM,
	}
)

// RegimeProto returns the API's regime for r (REGIME_UNSPECIFIED for an
// unknown name).
func RegimeProto(r vocab.Regime) triagev1.Regime { return regimeProtos[r] }

// Regime returns the name of an API regime and whether it names one
// (REGIME_UNSPECIFIED does not).
func Regime(r triagev1.Regime) (vocab.Regime, bool) { return reverse(regimeProtos, r) }

// StrategyProto returns the API's planner strategy for s
// (PLANNER_STRATEGY_UNSPECIFIED for an unknown name).
func StrategyProto(s vocab.Strategy) triagev1.PlannerStrategy { return strategyProtos[s] }

// PartialReferenceProto returns the API's partial-information reference
// for s (PARTIAL_REFERENCE_UNSPECIFIED for any other strategy).
func PartialReferenceProto(s vocab.Strategy) triagev1.PartialReference { return partialProtos[s] }

// PartialReference returns the strategy an API partial-information
// reference names and whether it names one.
func PartialReference(p triagev1.PartialReference) (vocab.Strategy, bool) {
	return reverse(partialProtos, p)
}

// VariantProto returns the API's prompt variant for v
// (PROMPT_VARIANT_UNSPECIFIED for NoVariant or an unknown name).
func VariantProto(v vocab.Variant) triagev1.PromptVariant { return variantProtos[v] }

// Variant returns the name of an API prompt variant and whether it names
// one; PROMPT_VARIANT_UNSPECIFIED means the default prompt.
func Variant(v triagev1.PromptVariant) (vocab.Variant, bool) {
	if v == triagev1.PromptVariant_PROMPT_VARIANT_UNSPECIFIED {
		return vocab.Default, true
	}
	return reverse(variantProtos, v)
}

// reverse looks a value up in a map of the pairs above.
func reverse[K comparable, V comparable](m map[K]V, v V) (K, bool) {
	for k, mv := range m {
		if mv == v {
			return k, true
		}
	}
	var zero K
	return zero, false
}

// ValidateRegimes reports, under field[i], each regime that is neither
// REGIME_ADVISORY nor REGIME_ENFORCED and each one requested twice.
func ValidateRegimes(v *apperr.Violations, field string, regimes []triagev1.Regime) {
	seen := map[triagev1.Regime]bool{}
	for i, r := range regimes {
		f := field + "[" + strconv.Itoa(i) + "]"
		switch {
		case r != triagev1.Regime_REGIME_ADVISORY && r != triagev1.Regime_REGIME_ENFORCED:
			v.Add(f, "must be REGIME_ADVISORY or REGIME_ENFORCED, got %v", r)
		case seen[r]:
			v.Add(f, "%v is requested twice", r)
		}
		seen[r] = true
	}
}
