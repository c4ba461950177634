package scoring

import "github.com/triage-eval/triage/internal/protocol/vocab"

// Output is the document `triage score` writes.
type Output struct {
	// Budget is the effective budget in tokens.
	Budget int64 `json:"budget"`
	// Alpha is the fraction the budget came from, when given as one.
	Alpha *float64 `json:"alpha,omitempty"`
	// TotalCost is Σ cost over the pool.
	TotalCost int64 `json:"total_cost"`
	// PoolSize is the number of items.
	PoolSize int `json:"pool_size"`
	// OracleValue is V_oracle.
	OracleValue float64 `json:"oracle_value"`
	// OraclePlan is an optimal plan, cheapest first, tokens = cost.
	OraclePlan []Step `json:"oracle_plan"`
	// RandomValue is V_random.
	RandomValue float64 `json:"random_value"`
	// RandomStderr is its standard error (0 when exact).
	RandomStderr float64 `json:"random_stderr"`
	// RandomMethod is "monte_carlo" or "exact".
	RandomMethod string `json:"random_method"`
	// RandomSamples is the number of shuffles (0 when exact).
	RandomSamples int32 `json:"random_samples"`
	// RandomSeed is the Monte Carlo seed.
	RandomSeed uint64 `json:"random_seed"`
	// Regimes holds the results under "U" (advisory) and "E" (enforced).
	Regimes map[vocab.Regime]RegimeScore `json:"regimes"`
	// Detection is D = |U \ S| / |U|; null when no item is unsolvable.
	Detection *float64 `json:"detection"`
	// Waste is W = Σ_{S∩U} a / Σ_S a; 0 when the plan allocates nothing.
	Waste float64 `json:"waste"`
	// PlannedValue is V_S, the best regime-U value of a subset of the
	// planned set that fits the budget; SelectionLoss, OrderLoss and
	// EnforcementLoss are the regret decomposition (SPEC §5), each divided
	// by V_oracle: selection + order is the U regret, + enforcement the E
	// regret. All null when V_oracle = 0.
	PlannedValue    *float64 `json:"planned_value"`
	SelectionLoss   *float64 `json:"selection_loss"`
	OrderLoss       *float64 `json:"order_loss"`
	EnforcementLoss *float64 `json:"enforcement_loss"`
	// Precision |S ∩ Y| / |S|, Recall |S ∩ Y| / |Y|, CostForecast (the
	// median of log₂(a / cost) over S) and UnderAllocation (the share of
	// S ∩ Y with a < cost) are the plan diagnostics (SPEC §5); each null
	// where undefined (S, Y or S ∩ Y empty).
	Precision       *float64 `json:"precision"`
	Recall          *float64 `json:"recall"`
	CostForecast    *float64 `json:"cost_forecast"`
	UnderAllocation *float64 `json:"under_allocation"`
	// PlannedTokens is Σ a over the normalized plan.
	PlannedTokens int64 `json:"planned_tokens"`
	// OverBudget reports PlannedTokens > Budget.
	OverBudget bool `json:"over_budget"`
	// NormalizedPlan is the plan as executed.
	NormalizedPlan []Step `json:"normalized_plan"`
	// DroppedSteps are the plan steps normalization removed.
	DroppedSteps []DroppedStep `json:"dropped_steps"`
	// Warnings explain anything a reader should know about the score.
	Warnings []string `json:"warnings"`
}

// RegimeScore is the plan's score under one regime.
type RegimeScore struct {
	// Value is V_M.
	Value float64 `json:"value"`
	// Eta is the triage efficiency η.
	Eta float64 `json:"eta"`
	// Regret is R̃; null when V_oracle = 0.
	Regret *float64 `json:"regret"`
	// RemainingBudget is the budget left at the end.
	RemainingBudget int64 `json:"remaining_budget"`
	// Trace has one entry per normalized plan step.
	Trace []TraceStep `json:"trace"`
}

// TraceStep is one executed (or not) plan step.
type TraceStep struct {
	// ID names the problem.
	ID string `json:"id"`
	// Tokens is the allocation.
	Tokens int64 `json:"tokens"`
	// Cost is the solver's cost.
	Cost int64 `json:"cost"`
	// Correct is the solver's outcome.
	Correct bool `json:"correct"`
	// Outcome is "scored", "truncated", "stopped" or "not_reached".
	Outcome string `json:"outcome"`
	// Gain is the value added.
	Gain float64 `json:"gain"`
	// RemainingBudget is the budget left after the step.
	RemainingBudget int64 `json:"remaining_budget"`
}

// DroppedStep is a plan step normalization removed.
type DroppedStep struct {
	// Index is the step's position in the plan as given.
	Index int `json:"index"`
	// ID is the step's id.
	ID string `json:"id"`
	// Tokens is the step's allocation as given.
	Tokens int64 `json:"tokens"`
	// Reason is "unknown_id", "duplicate", "negative" or "zero".
	Reason string `json:"reason"`
}
