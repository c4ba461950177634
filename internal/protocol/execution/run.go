package execution

// TraceEntry is what happened to one step of a normalized plan.
type TraceEntry struct {
	// Index is the item's position in the pool.
	Index int
	// ID is the item's id.
	ID string
	// Tokens is the plan's allocation a_i (advisory in regime U).
	Tokens int64
	// Cost is the solver's ground-truth cost c_i.
	Cost int64
	// Correct is the solver's ground-truth correctness y_i.
	Correct bool
	// Outcome is what happened to the step.
	Outcome Outcome
	// Gain is the value the step added: v_i·y_i when Scored, else 0.
	Gain float64
	// Remaining is the budget left after the step; a step that was not
	// executed leaves it unchanged.
	Remaining int64
}

// Result is a plan's execution under one regime.
type Result struct {
	// Value is V_M = Σ Gain over the trace, summed in plan order.
	Value float64
	// Remaining is the budget left at the end, B − Σ deducted ≥ 0.
	Remaining int64
	// Trace has one entry per plan step, in plan order; never nil.
	Trace []TraceEntry
	// Stopped is the position in the plan of the step where execution
	// stopped, or −1 when every step was executed.
	Stopped int
}

// RunAdvisory executes plan under regime U (SPEC §3). With R ← B and V ← 0,
// for each step in order: if c_i > R execution stops (later steps are not
// reached, even cheaper ones: the regime stops, it never skips); otherwise
// R ← R − c_i and V ← V + v_i·y_i. Allocations are ignored.
//
// plan must come from Normalize with the same p. A negative budget is taken
// as 0. RunAdvisory only reads its arguments and is safe for concurrent use.
func RunAdvisory(p *Pool, plan Plan, budget int64) Result {
	return run(p, plan, budget, false)
}

// RunEnforced executes plan under regime E (SPEC §3). With R ← B and V ← 0,
// for each step in order: if a_i > R execution stops; otherwise R ← R − a_i
// (the whole allocation, whatever the outcome) and, if c_i ≤ a_i, the step is
// Scored and V ← V + v_i·y_i; if c_i > a_i it is Truncated and scores 0.
//
// plan must come from Normalize with the same p. A negative budget is taken
// as 0, and so is a step allocation ≤ 0 (which Normalize never keeps): such a
// step deducts nothing and is truncated. RunEnforced only reads its arguments
// and is safe for concurrent use.
func RunEnforced(p *Pool, plan Plan, budget int64) Result {
	return run(p, plan, budget, true)
}

func run(p *Pool, plan Plan, budget int64, enforced bool) Result {
	r := max(budget, 0)
	var v float64
	trace := make([]TraceEntry, len(plan.Steps))
	stopped := -1
	for k, s := range plan.Steps {
		it := &p.items[s.Index]
		charge := it.Cost
		if enforced {
			charge = max(s.Tokens, 0)
		}
		e := &trace[k]
		e.Index, e.ID, e.Tokens, e.Cost, e.Correct = s.Index, it.ID, s.Tokens, it.Cost, it.Correct
		if charge > r {
			stopped = k
			break
		}
		r -= charge
		e.Remaining = r
		if enforced && it.Cost > charge {
			e.Outcome = Truncated
			continue
		}
		e.Outcome = Scored
		if it.Correct {
			e.Gain = it.Value
			v += it.Value
		}
	}
	if stopped >= 0 {
		trace[stopped].Outcome, trace[stopped].Remaining = Stopped, r
		for k := stopped + 1; k < len(trace); k++ {
			s := &plan.Steps[k]
			it := &p.items[s.Index]
			e := &trace[k]
			e.Index, e.ID, e.Tokens, e.Cost, e.Correct = s.Index, it.ID, s.Tokens, it.Cost, it.Correct
			e.Outcome, e.Remaining = NotReached, r
		}
	}
	return Result{Value: v, Remaining: r, Trace: trace, Stopped: stopped}
}
