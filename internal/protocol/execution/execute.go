package execution

// Regime names an execution regime (SPEC §3).
type Regime uint8

// The two regimes.
const (
	// Advisory is regime U: allocations are ignored, only the budget binds.
	Advisory Regime = iota + 1
	// Enforced is regime E: each attempt is capped at its allocation.
	Enforced
)

// Execute runs plan under regime like RunAdvisory and RunEnforced, with the
// same Value, Remaining and Stopped, but builds no trace (Result.Trace is
// nil) and allocates nothing: what grids that only need values call. The
// trace is a pure function of (pool, plan, budget, regime), so it can be had
// later from RunAdvisory or RunEnforced.
func Execute(p *Pool, plan Plan, budget int64, regime Regime) Result {
	enforced := regime == Enforced
	r := max(budget, 0)
	var v float64
	for k, s := range plan.Steps {
		it := &p.items[s.Index]
		charge := it.Cost
		if enforced {
			charge = max(s.Tokens, 0)
		}
		if charge > r {
			return Result{Value: v, Remaining: r, Stopped: k}
		}
		r -= charge
		if enforced && it.Cost > charge {
			continue // truncated: the allocation is spent, nothing scores
		}
		if it.Correct {
			v += it.Value
		}
	}
	return Result{Value: v, Remaining: r, Stopped: -1}
}
