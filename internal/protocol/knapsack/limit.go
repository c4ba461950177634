package knapsack

import "fmt"

// StateBudget bounds the work of the general method (see SolveWithin): the
// total number of Pareto states its stages may start from. Time is
// proportional to it (each state costs one merge step and one O(log n)
// bound) and so is memory (at most one arena node per state, and a frontier
// of at most twice the last stage's states). The zero value has nothing left;
// a nil *StateBudget is unbounded. It is not safe for concurrent use.
type StateBudget struct {
	limit, left int64
}

// NewStateBudget returns a budget of limit states.
func NewStateBudget(limit int64) *StateBudget {
	return &StateBudget{limit: limit, left: limit}
}

// Used returns how many states have been charged so far.
func (b *StateBudget) Used() int64 {
	if b == nil {
		return 0
	}
	return b.limit - b.left
}

// charge takes n states from b, or reports that b cannot afford them.
func (b *StateBudget) charge(n int) error {
	if b == nil {
		return nil
	}
	if int64(n) > b.left {
		b.left = 0
		return &StateLimitError{Limit: b.limit}
	}
	b.left -= int64(n)
	return nil
}

// StateLimitError reports that the general method ran out of its
// StateBudget before it could prove a selection optimal.
type StateLimitError struct {
	// Limit is the budget's size in states.
	Limit int64
}

// Error names the limit.
func (e *StateLimitError) Error() string {
	return fmt.Sprintf("knapsack: the exact search for these values needs more than %d Pareto states", e.Limit)
}
