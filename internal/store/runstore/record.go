package runstore

import "github.com/triage-eval/triage/internal/platform/version"

// ScoreRecord is the outcome of one plan under one regime: the unit a run
// stores (as JSON, under these stable keys) and a report aggregates. A cell is (solver, dataset, α, prompt
// variant, strategy, regime); a cell averages its pools (SPEC §5).
type ScoreRecord struct {
	// Model and Mode name the solver (SPEC §1: two modes, two solvers).
	Model string `json:"model"`
	Mode  string `json:"mode"`
	// Dataset is the pool's dataset.
	Dataset string `json:"dataset"`
	// Pool is the pool's index within its dataset's partition.
	Pool int `json:"pool"`
	// Alpha is the budget fraction.
	Alpha float64 `json:"alpha"`
	// Variant is the prompt variant ("default", "A", "B", "C"); strategies
	// that use no prompt record "-".
	Variant string `json:"variant"`
	// Strategy is "llm", a reference planner ("random", "shortest_first",
	// "all_in_order") or a partial-information reference ("population",
	// "self_feasibility", "self_cost"; SPEC §4).
	Strategy string `json:"strategy"`
	// Regime is "U" or "E".
	Regime string `json:"regime"`
	// Excluded is "" for a scored plan, else why the pool is left out of η:
	// "unparseable" (no plan could be recovered), "error" (the planner call
	// failed after its retries), "truncated_unparseable", "empty_pool" (no
	// gradeable item: no call was made), "no_population" (a
	// partial-information reference with no population, SPEC §4), "stale" (set when the record is
	// read back and its inputs have changed since, see SPEC §5), ...
	Excluded string `json:"excluded,omitempty"`
	// Detail explains an exclusion (the error text, the parse error).
	Detail string `json:"detail,omitempty"`
	// Value is V_M; Oracle and Random the references at this budget.
	Value  float64 `json:"value"`
	Oracle float64 `json:"oracle"`
	Random float64 `json:"random"`
	// RandomStderr is the standard error of Random (0 when exact).
	RandomStderr float64 `json:"random_stderr"`
	// Budget is B in tokens (0 when the pool was excluded before one was
	// computed).
	Budget int64 `json:"budget,omitempty"`
	// Eta is η; nil (JSON null) when the record is Excluded.
	Eta *float64 `json:"eta"`
	// Regret is R̃, defined only when Oracle > 0.
	Regret        float64 `json:"regret"`
	RegretDefined bool    `json:"regret_defined"`
	// PoolSize is the number of gradeable items in the pool for this solver.
	PoolSize int `json:"pool_size"`
	// Dropped is the number of the pool's problems left out for this solver
	// because they have no gradeable ground truth (SPEC §1).
	Dropped int `json:"dropped"`
	// Short marks the last pool of a partition when it holds fewer problems
	// than the configured pool size (SPEC §1: kept and flagged).
	Short bool `json:"short,omitempty"`
	// Source and Ratio mark a pool of the unsolvable-injection experiment
	// (SPEC §5): Dataset's pool Pool with round(Ratio·n) positions given to
	// unsolvable problems of Source. Both are unset for a plain pool.
	Source string   `json:"source,omitempty"`
	Ratio  *float64 `json:"ratio,omitempty"`
	// Injected is |U|: the injected items in this solver's pool.
	Injected int `json:"injected,omitempty"`
	// Detection is D = |U \ S| / |U|, nil when U is empty or the pool is
	// excluded; Waste is W, nil when the pool is excluded. Both depend on
	// the plan alone, so the U and E records of a pool agree.
	Detection *float64 `json:"detection,omitempty"`
	Waste     *float64 `json:"waste,omitempty"`
	// PlannedValue is V_S, the best regime-U value of a subset of the
	// planned set that fits B; Selection, Order and Enforcement are the
	// regret decomposition of SPEC §5, each divided by V_oracle. All nil
	// when the decomposition is undefined (V_oracle = 0), the pool is
	// excluded, or the record was stored before records carried them.
	// Like D and W they depend on the plan alone: the U and E records of
	// a pool agree.
	PlannedValue *float64 `json:"planned_value,omitempty"`
	Selection    *float64 `json:"selection_loss,omitempty"`
	Order        *float64 `json:"order_loss,omitempty"`
	Enforcement  *float64 `json:"enforcement_loss,omitempty"`
	// Precision, Recall, CostForecast and UnderAllocation are the plan
	// diagnostics of SPEC §5; each nil where undefined (an empty planned
	// set, no solvable item, no planned solvable item), for an excluded
	// pool, or in a record stored before records carried them.
	Precision       *float64 `json:"precision,omitempty"`
	Recall          *float64 `json:"recall,omitempty"`
	CostForecast    *float64 `json:"cost_forecast,omitempty"`
	UnderAllocation *float64 `json:"under_allocation,omitempty"`
	// Version is what computed the record (SPEC §10): the protocol, the
	// revision of its specification and the build of the run that stored
	// it; nil in a record stored before records carried it.
	Version *version.Stamp `json:"version,omitempty"`
}

// Accuracy is a solver's base accuracy on a dataset: correct answers over
// gradeable items in its ground truth.
type Accuracy struct {
	Model, Mode, Dataset string
	Correct, Gradeable   int
	// Unsolvable counts the gradeable items that are unsolvable variants
	// (never correct, SPEC §1); LuckyGuesses those of them whose answer the
	// grader nevertheless accepted.
	Unsolvable, LuckyGuesses int
	// PublicTestsOnly counts the gradeable items graded on public tests
	// alone (code problems without hidden tests), whose correctness a
	// program that looks its input up among the examples can earn.
	PublicTestsOnly int
}
