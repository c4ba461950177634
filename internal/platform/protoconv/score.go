package protoconv

import (
	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/planscore"
)

// ScoreInput gathers what planscore.Score needs of a plan executed on
// items (the pool as sent to the Executor): exec's normalized plan and V_M
// per regime, and the references ref at the same budget. Unsolvable marks
// are the caller's to add.
func ScoreInput(items []*triagev1.GroundTruthItem, exec *triagev1.ExecutePlanResponse, ref *triagev1.BudgetReferences) planscore.Input {
	in := planscore.Input{
		Items:  PoolItems(items),
		Plan:   Steps(exec.GetNormalizedPlan()),
		Budget: ref.GetBudget(),
		Oracle: ref.GetOracle().GetValue(),
		Random: ref.GetRandom().GetMean(),
		Values: make([]planscore.RegimeValue, len(exec.GetResults())),
	}
	for i, res := range exec.GetResults() {
		r, _ := Regime(res.GetRegime())
		in.Values[i] = planscore.RegimeValue{Regime: r, Value: res.GetValue()}
	}
	return in
}

// degeneracyProtos pairs the metrics package's degeneracies with the API's.
var degeneracyProtos = map[metrics.Degeneracy]triagev1.Degeneracy{
	metrics.Informative:        triagev1.Degeneracy_DEGENERACY_INFORMATIVE,
	metrics.DegenerateNoValue:  triagev1.Degeneracy_DEGENERACY_NO_VALUE,
	metrics.DegenerateCollapse: triagev1.Degeneracy_DEGENERACY_COLLAPSE,
}

// DegeneracyProto returns the API's degeneracy for d
// (DEGENERACY_UNSPECIFIED for an unknown one).
func DegeneracyProto(d metrics.Degeneracy) triagev1.Degeneracy { return degeneracyProtos[d] }
