package planner

import (
	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/planning/plannerids"
	"github.com/triage-eval/triage/internal/planning/prompts"
)

// shown returns the pool's problems as a planner sees them — planner ids
// p1 … pn, texts and values, never the caller's ids (SPEC §1) — and the
// table that maps plans back. Requests are validated first, so the ids are
// non-empty and distinct.
func shown(pool []*triagev1.PlannerProblem) ([]prompts.Problem, *plannerids.Table, error) {
	ids := make([]string, len(pool))
	for i, p := range pool {
		ids[i] = p.GetId()
	}
	table, err := plannerids.New(ids)
	if err != nil {
		return nil, nil, err
	}
	problems := make([]prompts.Problem, len(pool))
	for i, p := range pool {
		value := 1.0
		if p.Value != nil {
			value = p.GetValue()
		}
		problems[i] = prompts.Problem{ID: table.PlannerID(i), Text: p.GetText(), Value: value}
	}
	return problems, table, nil
}

// plannerIDs returns a table's rows for a response, in pool order.
func plannerIDs(t *plannerids.Table) []*triagev1.PlannerId {
	pairs := t.Pairs()
	out := make([]*triagev1.PlannerId, len(pairs))
	for i, p := range pairs {
		out[i] = &triagev1.PlannerId{PlannerId: p.PlannerID, ProblemId: p.ProblemID}
	}
	return out
}
