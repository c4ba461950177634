package protoconv

import (
	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/protocol/execution"
)

var dropReasons = map[execution.DropReason]triagev1.PlanDropReason{
	execution.DropUnknownID: triagev1.PlanDropReason_PLAN_DROP_REASON_UNKNOWN_ID,
	execution.DropDuplicate: triagev1.PlanDropReason_PLAN_DROP_REASON_DUPLICATE,
	execution.DropNegative:  triagev1.PlanDropReason_PLAN_DROP_REASON_NEGATIVE,
	execution.DropZero:      triagev1.PlanDropReason_PLAN_DROP_REASON_ZERO,
}

// PlanDrops converts the steps normalization dropped.
func PlanDrops(drops []execution.Drop) []*triagev1.PlanDrop {
	out := make([]*triagev1.PlanDrop, len(drops))
	for i, d := range drops {
		out[i] = &triagev1.PlanDrop{Index: int32(d.Index), Id: d.ID, Tokens: d.Tokens, Reason: dropReasons[d.Reason]}
	}
	return out
}

// PlanSteps converts plan steps.
func PlanSteps(steps []execution.Step) []*triagev1.PlanStep {
	out := make([]*triagev1.PlanStep, len(steps))
	for i, st := range steps {
		out[i] = &triagev1.PlanStep{Id: st.ID, Tokens: st.Tokens}
	}
	return out
}

// Steps converts API plan steps, the inverse of PlanSteps.
func Steps(steps []*triagev1.PlanStep) []execution.Step {
	return AppendSteps(make([]execution.Step, 0, len(steps)), steps)
}

// AppendSteps appends the conversions of steps (as Steps) to dst, for
// callers that reuse dst across calls.
func AppendSteps(dst []execution.Step, steps []*triagev1.PlanStep) []execution.Step {
	for _, st := range steps {
		dst = append(dst, execution.Step{ID: st.GetId(), Tokens: st.GetTokens()})
	}
	return dst
}
