package scoring

import (
	"github.com/triage-eval/triage/services/executor"
	"github.com/triage-eval/triage/services/oracle"
)

// Request limits. They bound the work and memory one call can ask for; the
// Executor's and the Oracle's own limits apply to the calls the service
// makes to them too (the Oracle's bounds the random reference's samples).
const (
	// MaxBudgets is the most budgets one ScorePlanRequest may ask for.
	MaxBudgets = oracle.MaxBudgets
	// MaxUnsolvable is the most unsolvable ids one request may flag.
	MaxUnsolvable = oracle.MaxItems
	// MaxExecuteWork bounds budgets × regimes × (pool items + plan steps)
	// of one ScorePlanRequest: the plan is executed once per budget and
	// regime, each linear in both. At the bound a request's executions
	// take about 0.8 s (four times one ExecutePlan's bound); the paper's
	// calls (4 × 2 × (30 + 30)) are far below it.
	MaxExecuteWork = 4 * executor.MaxExecuteWork
	// MaxBatchRequests is the most requests one ScorePlans call may carry.
	MaxBatchRequests = 10_000
	// MaxBatchWork bounds the work of one ScorePlans call: the sum over its
	// requests of items × budgets × samples (the random reference; the
	// exact method counts one sample) and budgets × regimes × (items +
	// plan steps) (the executions). At the bound a batch takes about 20 s
	// of one core at worst (10 requests at the Oracle's own bound); 10,000
	// of the paper's requests (30 items, 4 budgets, 1000 samples) use an
	// eighth of it.
	MaxBatchWork = 10 * oracle.MaxWork
	// MaxKnapsackStates bounds, like the Oracle's bound of the same name,
	// the Pareto states the search for V_S (the regret decomposition's
	// knapsack restricted to the planned set) may examine over all budgets
	// of one request: about 1 s and at most a few hundred MiB. Unit values
	// never use the search; a pool within the Oracle's bound is rarely near
	// it, the planned set being a part of the pool.
	MaxKnapsackStates = oracle.MaxKnapsackStates
)
