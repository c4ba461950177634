package plancall

import (
	"encoding/json"
	"slices"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/planning/plannerids"
	"github.com/triage-eval/triage/internal/planning/prompts"
	"github.com/triage-eval/triage/internal/platform/protoconv"
	"github.com/triage-eval/triage/internal/protocol/vocab"
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

// Renderer renders planner calls as Of does, reusing for a request whose
// problems are those of the request before it (same ids, texts and values,
// in order) the problems as shown and their prompt block: the cells of one
// pool differ only in budget and variant, and a quote renders them in
// turn. Not safe for concurrent use; the zero value is ready.
type Renderer struct {
	last      []*triagev1.PlannerProblem
	shown     []prompts.Problem
	block     string
	templates map[vocab.Variant]prompts.Template
}

// Of is Of(req), reusing what the request before it rendered.
func (r *Renderer) Of(req *triagev1.CreatePlanRequest) (llm.Request, error) {
	if !samePool(r.last, req.GetProblems()) {
		shown, _, err := Shown(req.GetProblems())
		if err != nil {
			r.last = nil
			return llm.Request{}, err
		}
		r.last, r.shown, r.block = req.GetProblems(), shown, prompts.ProblemBlock(shown)
	}
	variant, _ := protoconv.Variant(req.GetVariant())
	tmpl, ok := r.templates[variant]
	if !ok {
		var err error
		if tmpl, err = prompts.Planner(variant); err != nil {
			return llm.Request{}, err
		}
		if r.templates == nil {
			r.templates = map[vocab.Variant]prompts.Template{}
		}
		r.templates[variant] = tmpl
	}
	return renderWith(tmpl, req, r.shown, r.block), nil
}

// samePool reports whether a and b (a not empty) hold the same problems in
// the same order.
func samePool(a, b []*triagev1.PlannerProblem) bool {
	return len(a) > 0 && slices.EqualFunc(a, b, func(x, y *triagev1.PlannerProblem) bool {
		return x.GetId() == y.GetId() && x.GetText() == y.GetText() && (x.Value == nil) == (y.Value == nil) && x.GetValue() == y.GetValue()
	})
}

// Render renders req's planner prompt over problems (as the planner
// shows them) and returns the call and its template.
func Render(req *triagev1.CreatePlanRequest, problems []prompts.Problem) (llm.Request, prompts.Template, error) {
	return render(req, problems, "")
}

// render is Render with the problems' prompt block, or "" to render it.
func render(req *triagev1.CreatePlanRequest, problems []prompts.Problem, block string) (llm.Request, prompts.Template, error) {
	variant, _ := protoconv.Variant(req.GetVariant())
	tmpl, err := prompts.Planner(variant)
	if err != nil {
		return llm.Request{}, prompts.Template{}, err
	}
	return renderWith(tmpl, req, problems, block), tmpl, nil
}

// renderWith is render with req's template, tmpl.
func renderWith(tmpl prompts.Template, req *triagev1.CreatePlanRequest, problems []prompts.Problem, block string) llm.Request {
	domain := req.GetDomain()
	if domain == "" {
		domain = "problems"
	}
	prompt := tmpl.Render(prompts.PlannerInput{Problems: problems, Budget: req.GetBudget(), Domain: domain, Block: block})
	call := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: prompt}}}
	if req.GetStructuredOutput() {
		call.ResponseFormat = Schema()
	}
	return call
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
