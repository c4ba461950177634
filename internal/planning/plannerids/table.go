package plannerids

import (
	"fmt"
	"strconv"

	"github.com/triage-eval/triage/internal/planning/repair"
)

// Prefix starts every planner id: the problem at pool index i is shown as
// Prefix followed by i+1.
const Prefix = "p"

// plannerID returns the planner id of pool index i (from 0): "p1" for 0.
func plannerID(i int) string { return Prefix + strconv.Itoa(i+1) }

// Pair is one row of a Table: the id a planner sees and the pool's id of the
// same problem.
type Pair struct {
	// PlannerID is the opaque id shown to the planner, "p1" … "pn".
	PlannerID string
	// ProblemID is the problem's id in the pool, as the caller gave it.
	ProblemID string
}

// Table maps a pool's problem ids to planner ids p1 … pn (pool order) and
// back. It is immutable and safe for concurrent use.
type Table struct {
	problemIDs []string
	matcher    *repair.Matcher // over p1 … pn
	index      map[string]int  // planner id → pool index
}

// New returns the table of a pool whose problem ids are ids, in pool order.
// The ids must be non-empty and distinct: two problems behind one planner id
// could not be told apart in a plan.
func New(ids []string) (*Table, error) {
	t := &Table{
		problemIDs: make([]string, len(ids)),
		index:      make(map[string]int, len(ids)),
	}
	planner := make([]string, len(ids))
	seen := make(map[string]int, len(ids))
	for i, id := range ids {
		if id == "" {
			return nil, fmt.Errorf("plannerids: problem id %d is empty", i)
		}
		if first, dup := seen[id]; dup {
			return nil, fmt.Errorf("plannerids: problem id %q repeats (at %d and %d)", id, first, i)
		}
		seen[id] = i
		t.problemIDs[i] = id
		planner[i] = plannerID(i)
		t.index[planner[i]] = i
	}
	t.matcher = repair.NewMatcher(planner)
	return t, nil
}

// Len returns the number of problems.
func (t *Table) Len() int { return len(t.problemIDs) }

// PlannerID returns the planner id of the problem at pool index i (from 0):
// "p1" for 0.
func (t *Table) PlannerID(i int) string { return plannerID(i) }

// ProblemID returns the pool's id of the problem a planner id names exactly
// ("p3"), and false for anything else.
func (t *Table) ProblemID(plannerID string) (string, bool) {
	i, ok := t.index[plannerID]
	if !ok {
		return "", false
	}
	return t.problemIDs[i], true
}

// Pairs returns the table's rows in pool order.
func (t *Table) Pairs() []Pair {
	out := make([]Pair, len(t.problemIDs))
	for i, id := range t.problemIDs {
		out[i] = Pair{PlannerID: plannerID(i), ProblemID: id}
	}
	return out
}

// Repair turns raw planner output that names the problems p1 … pn into a
// plan over the pool's ids (SPEC §2); budget, when not nil, sets
// Result.OverBudget. Result.Plan holds pool ids; a dropped step keeps the id
// as written unless it names a problem of the pool (a repeat, an allocation
// ≤ 0), when it holds that problem's pool id. Fixes quote the raw output and
// so speak planner ids.
func (t *Table) Repair(raw string, budget *int64) repair.Result {
	res := t.matcher.Repair(raw, budget)
	for k, st := range res.Plan {
		if i, ok := t.index[st.ID]; ok { // always: a plan holds matcher ids
			res.Plan[k].ID = t.problemIDs[i]
		}
	}
	for k, d := range res.Dropped {
		// A step dropped for its id (unknown_id) names no problem, so only
		// repeats and allocations ≤ 0 resolve.
		if pid, ok := t.matcher.Resolve(d.ID); ok {
			res.Dropped[k].ID = t.problemIDs[t.index[pid]]
		}
	}
	return res
}
