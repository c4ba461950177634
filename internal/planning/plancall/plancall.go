package plancall

import (
	"encoding/json"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/planning/plannerids"
	"github.com/triage-eval/triage/internal/planning/prompts"
	"github.com/triage-eval/triage/internal/platform/protoconv"
)

// Shown returns the pool's problems as a planner sees them — planner ids
// p1 … pn, texts and values, never the caller's ids (SPEC §1) — and the
// table that maps plans back. Requests are validated first, so the ids are
// non-empty and distinct.
func Shown(pool []*triagev1.PlannerProblem) ([]prompts.Problem, *plannerids.Table, error) {
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

// Of is the model call the Planner's CreatePlan makes for an llm-strategy
// req: a quote renders it to count its tokens and find it in the cache, a
// spend cap to reserve its pessimistic cost.
func Of(req *triagev1.CreatePlanRequest) (llm.Request, error) {
	problems, _, err := Shown(req.GetProblems())
	if err != nil {
		return llm.Request{}, err
	}
	call, _, err := Render(req, problems)
	return call, err
}

// Render renders req's planner prompt over problems (as the planner
// shows them) and returns the call and its template.
func Render(req *triagev1.CreatePlanRequest, problems []prompts.Problem) (llm.Request, prompts.Template, error) {
	variant, _ := protoconv.Variant(req.GetVariant())
	tmpl, err := prompts.Planner(variant)
	if err != nil {
		return llm.Request{}, prompts.Template{}, err
	}
	domain := req.GetDomain()
	if domain == "" {
		domain = "problems"
	}
	prompt := tmpl.Render(prompts.PlannerInput{Problems: problems, Budget: req.GetBudget(), Domain: domain})
	call := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: prompt}}}
	if req.GetStructuredOutput() {
		call.ResponseFormat = Schema()
	}
	return call, tmpl, nil
}

// Schema is the JSON schema of the plan the prompt asks for.
func Schema() *llm.JSONSchema {
	return &llm.JSONSchema{
		Name: "triage_plan",
		Schema: json.RawMessage(`{"type":"object","properties":{"plan":{"type":"array","items":{"type":"object",` +
			`"properties":{"id":{"type":"string"},"tokens":{"type":"integer"}},"required":["id","tokens"],"additionalProperties":false}}},` +
			`"required":["plan"],"additionalProperties":false}`),
		Strict: true,
	}
}
