package report

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
	// Strategy is "llm", "random", "shortest_first" or "all_in_order".
	Strategy string `json:"strategy"`
	// Regime is "U" or "E".
	Regime string `json:"regime"`
	// Excluded is "" for a scored plan, else why the pool is left out of η:
	// "unparseable" (no plan could be recovered), "error" (the planner call
	// failed after its retries), "truncated_unparseable", ...
	Excluded string `json:"excluded,omitempty"`
	// Detail explains an exclusion (the error text, the parse error).
	Detail string `json:"detail,omitempty"`
	// Value is V_M; Oracle and Random the references at this budget.
	Value  float64 `json:"value"`
	Oracle float64 `json:"oracle"`
	Random float64 `json:"random"`
	// Eta is η (meaningful when not Excluded).
	Eta float64 `json:"eta"`
	// Regret is R̃, defined only when Oracle > 0.
	Regret        float64 `json:"regret"`
	RegretDefined bool    `json:"regret_defined"`
	// PoolSize is the number of gradeable items in the pool for this solver.
	PoolSize int `json:"pool_size"`
}

// Accuracy is a solver's base accuracy on a dataset: correct answers over
// gradeable items in its ground truth.
type Accuracy struct {
	Model, Mode, Dataset string
	Correct, Gradeable   int
}
