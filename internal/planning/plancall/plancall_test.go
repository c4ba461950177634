package plancall

import (
	"reflect"
	"testing"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
)

// TestRendererIsOf renders a sequence of requests with one Renderer and
// checks every call is Of's: pools repeated with other budgets and
// variants, and pools that differ from the one before in a text, an id, a
// value or its order, or that fail.
func TestRendererIsOf(t *testing.T) {
	two := 2.0
	pool := func(texts ...string) []*triagev1.PlannerProblem {
		out := make([]*triagev1.PlannerProblem, len(texts))
		for i, text := range texts {
			out[i] = &triagev1.PlannerProblem{Id: "q" + string(rune('a'+i)), Text: text}
		}
		return out
	}
	a := pool("one", "two", "three")
	text := pool("one", "TWO", "three")
	ids := pool("one", "two", "three")
	ids[2].Id = "qz"
	valued := pool("one", "two", "three")
	valued[1].Value = &two
	swapped := []*triagev1.PlannerProblem{a[1], a[0], a[2]}
	dup := pool("one", "two")
	dup[1].Id = dup[0].Id
	req := func(problems []*triagev1.PlannerProblem, budget int64, v triagev1.PromptVariant) *triagev1.CreatePlanRequest {
		return &triagev1.CreatePlanRequest{Problems: problems, Budget: budget, Variant: v, Domain: "competition math problems"}
	}
	seq := []*triagev1.CreatePlanRequest{
		req(nil, 100, triagev1.PromptVariant_PROMPT_VARIANT_DEFAULT),
		req(a, 100, triagev1.PromptVariant_PROMPT_VARIANT_DEFAULT),
		req(a, 200, triagev1.PromptVariant_PROMPT_VARIANT_NEUTRAL),
		req(pool("one", "two", "three"), 300, triagev1.PromptVariant_PROMPT_VARIANT_AGENT),
		req(text, 300, triagev1.PromptVariant_PROMPT_VARIANT_AGENT),
		req(ids, 300, triagev1.PromptVariant_PROMPT_VARIANT_AGENT),
		req(valued, 300, triagev1.PromptVariant_PROMPT_VARIANT_AGENT),
		req(swapped, 300, triagev1.PromptVariant_PROMPT_VARIANT_AGENT),
		req(dup, 300, triagev1.PromptVariant_PROMPT_VARIANT_AGENT),
		req(dup, 300, triagev1.PromptVariant_PROMPT_VARIANT_AGENT),
		req(a, 0, triagev1.PromptVariant_PROMPT_VARIANT_DEFAULT),
		req(nil, 100, triagev1.PromptVariant_PROMPT_VARIANT_DEFAULT),
		{Problems: a, Budget: 5, StructuredOutput: true},
	}
	var r Renderer
	for i, q := range seq {
		want, wantErr := Of(q)
		got, err := r.Of(q)
		if (err != nil) != (wantErr != nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("request %d: Renderer.Of = %+v, %v; want %+v, %v", i, got, err, want, wantErr)
		}
	}
}
