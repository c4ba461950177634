// Package planscore scores one plan on one pool at one budget (SPEC §5):
// η and R̃ under every regime the plan was executed in, whether the pool
// is degenerate, detection D and waste W when the pool carries injected
// unsolvable items, and — from the items — the regret decomposition
// (selection, order, enforcement) and the plan diagnostics (precision,
// recall, cost forecast, under-allocation). It is the one definition of a
// plan's per-pool scores: grid cells, the Scoring service (`triage score`)
// and the report's recomputation of stored records all call Score.
//
// Score is a pure function of its Input. V_M under each regime (the
// Executor's results) and the references V_oracle and V_random (the
// Oracle's) are inputs, so callers that hold only stored numbers (a report)
// get the same η and R̃ as the callers that hold the pool and the plan.
// Parts of the score that need more than the numbers are computed only when
// the Input carries the items: D and W need the unsolvable marks; the
// decomposition needs V_S, the knapsack optimum over the planned set (the
// knapsack package, bounded by Input.States), and V_U and V_E (taken from
// Values, or by executing the plan when a regime is missing). The formulas
// themselves are the metrics package's; this package decides what is
// computed for a plan and from what.
//
// It imports only other protocol packages.
package planscore
