package planner

import (
	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/planning/plannerids"
)

// plannerIDs returns a table's rows for a response, in pool order.
func plannerIDs(t *plannerids.Table) []*triagev1.PlannerId {
	pairs := t.Pairs()
	out := make([]*triagev1.PlannerId, len(pairs))
	for i, p := range pairs {
		out[i] = &triagev1.PlannerId{PlannerId: p.PlannerID, ProblemId: p.ProblemID}
	}
	return out
}
