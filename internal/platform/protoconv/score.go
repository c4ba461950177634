package protoconv

import (
	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/protocol/execution"
	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/planscore"
	"github.com/triage-eval/triage/internal/protocol/pool"
)

// ScoreInput gathers what planscore.Score needs of a plan executed on
// items (the pool as sent to the Executor): exec's normalized plan and V_M
// per regime, and the references ref at the same budget. Unsolvable marks
// are the caller's to add.
func ScoreInput(items []*triagev1.GroundTruthItem, exec *triagev1.ExecutePlanResponse, ref *triagev1.BudgetReferences) planscore.Input {
	return BudgetInput(PoolItems(items), Steps(exec.GetNormalizedPlan()), exec.GetResults(), ref)
}

// BudgetInput is ScoreInput for items and a normalized plan already
// converted (shared by the budgets of one request) and an execution's
// results.
func BudgetInput(items []pool.Item, plan []execution.Step, results []*triagev1.RegimeResult, ref *triagev1.BudgetReferences) planscore.Input {
	in := planscore.Input{
		Items:  items,
		Plan:   plan,
		Budget: ref.GetBudget(),
		Oracle: ref.GetOracle().GetValue(),
		Random: ref.GetRandom().GetMean(),
		Values: make([]planscore.RegimeValue, len(results)),
	}
	for i, res := range results {
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

// DecompositionProto returns the API's regret decomposition of a scored
// plan: V_S and the selection, order and enforcement losses; nil when the
// decomposition is undefined (V_oracle = 0, or scored without items).
func DecompositionProto(r planscore.Result) *triagev1.RegretDecomposition {
	if r.Losses == nil {
		return nil
	}
	return &triagev1.RegretDecomposition{
		PlannedValue: r.PlannedValue,
		Selection:    r.Losses.Selection,
		Order:        r.Losses.Order,
		Enforcement:  r.Losses.Enforcement,
	}
}

// DiagnosticsProto returns the API's plan diagnostics; each field is unset
// where d's is nil (undefined for the plan and pool).
func DiagnosticsProto(d metrics.Diagnostics) *triagev1.PlanDiagnostics {
	return &triagev1.PlanDiagnostics{
		Precision:       d.Precision,
		Recall:          d.Recall,
		CostForecast:    d.CostForecast,
		UnderAllocation: d.UnderAllocation,
	}
}
