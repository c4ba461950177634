package repair

import (
	"strings"

	"github.com/triage-eval/triage/internal/protocol/execution"
)

// Result is a repaired plan and its repair log.
type Result struct {
	// Status says whether the output was a plan as is, a repaired plan, or
	// no plan at all.
	Status Status
	// Plan is the normalized plan in execution order: every id is a pool id
	// exactly as given to the Matcher, every id appears once, every
	// allocation is > 0. It is non-nil (possibly empty) unless Status is
	// Unparseable, when it is nil. execution.Normalize keeps every step of
	// it, and Render gives its canonical JSON.
	Plan []execution.Step
	// Dropped lists the plan elements that normalization removed (unknown
	// ids, repeated ids, allocations ≤ 0), in plan order: Index is the
	// element's position in the JSON plan array, ID the id as written (a
	// number's literal text), Tokens the allocation as read. Elements that
	// were not steps at all (invalid_step, invalid_tokens) are only in
	// Fixes. Nil when Status is Unparseable.
	Dropped []execution.Drop
	// Fixes is the repair log: every rule that fired, in pipeline order
	// (text, syntax, shape, then steps in plan order, key synonyms, extra
	// fields, then normalization drops in plan order). For a plan it is
	// empty exactly when Status is OK; an Unparseable result keeps the
	// repairs made before the search failed (strip_think).
	Fixes []Fix
	// PlannedTokens is Σ a over Plan, saturating at math.MaxInt64.
	PlannedTokens int64
	// OverBudget reports Σ a > budget, when Repair was given a budget (false
	// otherwise). An over-budget plan is still a plan (SPEC §1).
	OverBudget bool
	// Error says why the output is Unparseable; empty otherwise.
	Error string
}

// result builds the Result from the normalized plan: the kept steps, the
// drops mapped back to plan positions and ids as written, one Fix per drop,
// and the status.
func (r *run) result(plan execution.Plan, meta []stepMeta, budget *int64) Result {
	res := Result{
		Plan:          make([]execution.Step, len(plan.Steps)),
		Dropped:       make([]execution.Drop, len(plan.Log)),
		PlannedTokens: plan.PlannedTokens,
	}
	for k, s := range plan.Steps {
		res.Plan[k] = execution.Step{ID: s.ID, Tokens: s.Tokens}
	}
	var first []int // pool index → plan position of its first step, built on the first duplicate
	for k, d := range plan.Log {
		st := meta[d.Index]
		res.Dropped[k] = execution.Drop{Index: st.index, ID: strings.Clone(st.given), Tokens: d.Tokens, Reason: d.Reason}
		l := r.line().at(st.index)
		switch d.Reason {
		case execution.DropUnknownID:
			why := " is not a pool id; dropped"
			if st.how == matchAmbiguous {
				why = " matches several pool ids; dropped"
			}
			r.fixLine(FixUnknownID, l.s(".id ").q(st.given).s(why))
		case execution.DropDuplicate:
			if first == nil {
				first = r.firstSteps(meta)
			}
			r.fixLine(FixDuplicateID, l.s(".id ").q(st.given).s(" repeats ").at(first[st.pool]).s("; dropped"))
		case execution.DropNegative:
			r.fixLine(FixNegativeToZero, l.s(".tokens ").n(d.Tokens).s(" → 0 (").q(st.given).s("); dropped"))
		case execution.DropZero:
			r.fixLine(FixZeroDropped, l.s(".tokens 0 (").q(st.given).s("); dropped"))
		}
	}
	if budget != nil {
		res.OverBudget = plan.OverBudget(*budget)
	}
	res.Fixes = r.log()
	res.Status = OK
	if len(res.Fixes) > 0 {
		res.Status = Repaired
	}
	return res
}

// firstSteps returns, for each pool index, the plan position of the first
// step that resolved to it (−1 for none).
func (r *run) firstSteps(meta []stepMeta) []int {
	first := make([]int, r.m.Len())
	for i := range first {
		first[i] = -1
	}
	for _, st := range meta {
		if st.pool >= 0 && first[st.pool] < 0 {
			first[st.pool] = st.index
		}
	}
	return first
}
