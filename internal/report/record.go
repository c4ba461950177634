package report

// ScoreRecord is the outcome of one plan under one regime: the unit a run
// stores and a report aggregates. A cell is (solver, dataset, α, prompt
// variant, strategy, regime); a cell averages its pools (SPEC §5).
type ScoreRecord struct {
	// Model and Mode name the solver (SPEC §1: two modes, two solvers).
	Model, Mode string
	// Dataset is the pool's dataset.
	Dataset string
	// Pool is the pool's index within its dataset's partition.
	Pool int
	// Alpha is the budget fraction.
	Alpha float64
	// Variant is the prompt variant ("default", "A", "B", "C"); strategies
	// that use no prompt record "-".
	Variant string
	// Strategy is "llm", "random", "shortest_first" or "all_in_order".
	Strategy string
	// Regime is "U" or "E".
	Regime string
	// Excluded is "" for a scored plan, else why the pool is left out of η:
	// "unparseable" (no plan could be recovered), "error" (the planner call
	// failed after its retries), "truncated_unparseable", ...
	Excluded string
	// Detail explains an exclusion (the error text, the parse error).
	Detail string
	// Value is V_M; Oracle and Random the references at this budget.
	Value, Oracle, Random float64
	// Eta is η (meaningful when not Excluded).
	Eta float64
	// Regret is R̃, defined only when Oracle > 0.
	Regret        float64
	RegretDefined bool
	// PoolSize is the number of gradeable items in the pool for this solver.
	PoolSize int
}

// Accuracy is a solver's base accuracy on a dataset: correct answers over
// gradeable items in its ground truth.
type Accuracy struct {
	Model, Mode, Dataset string
	Correct, Gradeable   int
}
