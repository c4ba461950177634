package planner_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/testkit/golden"
	"github.com/triage-eval/triage/services/planner"
)

func problems(n int) []*triagev1.PlannerProblem {
	out := make([]*triagev1.PlannerProblem, n)
	for i := range out {
		out[i] = &triagev1.PlannerProblem{Id: fmt.Sprintf("p%d", i+1), Text: fmt.Sprintf("Problem %d: compute %s.", i+1, strings.Repeat("x", (i*7)%11+1))}
	}
	return out
}

// newPlanner serves a Planner with one named endpoint, "qwen", pointing at
// srv, whose key is in the (fake) environment variable QWEN_KEY.
func newPlanner(t *testing.T, srv *llmtest.Server, cache llm.Cache) triagev1.PlannerServiceClient {
	t.Helper()
	return servePlanner(t, plannerConfig(srv, cache))
}

// servePlanner serves a Planner with cfg.
func servePlanner(t *testing.T, cfg planner.Config) triagev1.PlannerServiceClient {
	t.Helper()
	svc := server.Service{Name: "planner", Desc: &triagev1.PlannerService_ServiceDesc, Impl: planner.New(cfg)}
	return triagev1.NewPlannerServiceClient(servertest.Start(t, nil, svc))
}

// plannerConfig is newPlanner's configuration.
func plannerConfig(srv *llmtest.Server, cache llm.Cache) planner.Config {
	return planner.Config{
		Endpoints: map[string]llm.Endpoint{"qwen": {
			Name: "qwen", BaseURL: srv.URL(), APIKeyEnv: "QWEN_KEY", Model: "Qwen/Qwen3-32B",
			Mode: llm.ModeExtended, Family: llm.FamilyQwen, MaxOutputTokens: 4096, MaxAttempts: 3,
			Timeout: 2 * time.Second,
		}},
		Cache:  cache,
		Getenv: func(k string) string { return map[string]string{"QWEN_KEY": "sk-test"}[k] },
		Now:    func() time.Time { return time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC) },
	}
}

const messyAnswer = "Let me think about which problems are short.\n" +
	"```json\n{\"plan\": [{\"id\": \"p2\", \"tokens\": \"1,200\"}, {\"id\": 3, \"tokens\": 800.7}, {\"id\": \"p9\", \"tokens\": 50},]}\n```\nGood luck!"

func TestCreatePlanLLM(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithAPIKey("sk-test"), llmtest.WithScript(llmtest.VLLM(llmtest.Completion{
		Content: messyAnswer, Reasoning: "p2 looks quick.", PromptTokens: 400, CompletionTokens: 120,
	})))
	cache, err := llm.OpenCache(context.Background(), filepath.Join(t.TempDir(), "cache.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	c := newPlanner(t, srv, cache)
	req := &triagev1.CreatePlanRequest{
		Endpoint: &triagev1.CreatePlanRequest_EndpointName{EndpointName: "qwen"},
		Problems: problems(3), Budget: 5000, Domain: "competition math problems",
		Variant: triagev1.PromptVariant_PROMPT_VARIANT_AGENT,
	}
	resp, err := c.CreatePlan(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	p := resp.GetParsed()
	if p.GetStatus() != triagev1.ParseStatus_PARSE_STATUS_REPAIRED || len(p.GetFixes()) == 0 {
		t.Errorf("status %v fixes %v, want REPAIRED with a log", p.GetStatus(), p.GetFixes())
	}
	var plan []string
	for _, st := range p.GetPlan() {
		plan = append(plan, fmt.Sprintf("%s:%d", st.GetId(), st.GetTokens()))
	}
	if strings.Join(plan, " ") != "p2:1200 p3:800" || len(p.GetDroppedSteps()) != 1 || p.GetPlannedTokens() != 2000 {
		t.Errorf("plan %v dropped %v planned %d", plan, p.GetDroppedSteps(), p.GetPlannedTokens())
	}
	if resp.GetReasoning() != "p2 looks quick." || resp.GetRawOutput() != messyAnswer || resp.GetUsage().GetOutputTokens() != 120 ||
		resp.GetUsage().GetOutputTokensRule() != triagev1.CostRule_COST_RULE_COMPLETION {
		t.Errorf("reasoning %q raw %q usage %v", resp.GetReasoning(), resp.GetRawOutput(), resp.GetUsage())
	}
	if resp.GetTemplateName() != "planner/B" || len(resp.GetTemplateSha256()) != 64 || resp.GetModel() != "Qwen/Qwen3-32B" {
		t.Errorf("template %q %q model %q", resp.GetTemplateName(), resp.GetTemplateSha256(), resp.GetModel())
	}
	golden.String(t, filepath.Join("testdata", "prompt_B.golden"), resp.GetPrompt())

	// What went over the wire: the prompt as the only user message, at
	// temperature 0, with Qwen's thinking switch on.
	reqs := srv.Requests()
	if len(reqs) != 1 || !reqs[0].Authorized {
		t.Fatalf("%d requests, authorized %v", len(reqs), len(reqs) > 0 && reqs[0].Authorized)
	}
	var body struct {
		Model       string          `json:"model"`
		Temperature *float64        `json:"temperature"`
		Messages    []llm.Message   `json:"messages"`
		Kwargs      map[string]bool `json:"chat_template_kwargs"`
	}
	if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	if body.Temperature == nil || *body.Temperature != 0 || len(body.Messages) != 1 || body.Messages[0].Content != resp.GetPrompt() ||
		!body.Kwargs["enable_thinking"] || body.Model != "Qwen/Qwen3-32B" {
		t.Errorf("request body = %s", reqs[0].Body)
	}

	// The same request again is answered from the cache.
	again, err := c.CreatePlan(context.Background(), req)
	if err != nil || !again.GetCacheHit() || srv.Count() != 1 {
		t.Errorf("second call: hit %v, server saw %d requests, err %v", again.GetCacheHit(), srv.Count(), err)
	}
}

// TestCreatePlanModelFailures: a named endpoint's failure names the
// endpoint and its model and gives the provider's status and message.
func TestCreatePlanModelFailures(t *testing.T) {
	tests := []struct {
		name   string
		script []llmtest.Reply
		code   codes.Code
		want   string
	}{
		{"keeps failing", []llmtest.Reply{llmtest.ServerError(), llmtest.ServerError(), llmtest.ServerError()}, codes.Unavailable,
			`endpoint "qwen" (model Qwen/Qwen3-32B): gave up after 3 attempts; last error: HTTP 500 Internal Server Error (server_error): The server had an error while processing your request.`},
		{"refused", []llmtest.Reply{llmtest.BadRequest("context length exceeded")}, codes.FailedPrecondition,
			`endpoint "qwen" (model Qwen/Qwen3-32B) refused the request: HTTP 400 Bad Request (invalid_request_error): context length exceeded`},
		{"unknown model", []llmtest.Reply{llmtest.ModelNotFound("Qwen/Qwen3-32B")}, codes.FailedPrecondition,
			"endpoint \"qwen\" (model Qwen/Qwen3-32B) refused the request: HTTP 404 Not Found (model_not_found): The model `Qwen/Qwen3-32B` does not exist or you do not have access to it."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, llmtest.WithScript(tt.script...))
			c := newPlanner(t, srv, nil)
			_, err := c.CreatePlan(context.Background(), &triagev1.CreatePlanRequest{
				Endpoint: &triagev1.CreatePlanRequest_EndpointName{EndpointName: "qwen"}, Problems: problems(2), Budget: 100,
			})
			if status.Code(err) != tt.code || status.Convert(err).Message() != tt.want {
				t.Errorf("err = %v, want %v: %s", err, tt.code, tt.want)
			}
		})
	}
}

// putFailingCache misses every lookup and fails every store, as a cache
// whose database is briefly unreachable after the lookup.
type putFailingCache struct{}

func (putFailingCache) Get(context.Context, string) (llm.Response, bool, error) {
	return llm.Response{}, false, nil
}

func (putFailingCache) Put(context.Context, string, llm.Response) error {
	return errors.New("connection refused")
}

// TestCreatePlanKeepsAnAnswerTheCacheCannotStore: when the cache cannot
// store the model's answer, CreatePlan still returns the plan with its
// usage (the call was paid for, and its spend is recorded from it), and
// the failure is reported, not dropped.
func TestCreatePlanKeepsAnAnswerTheCacheCannotStore(t *testing.T) {
	tests := []struct {
		name  string
		cache llm.Cache
		fails int // cache failures reported
	}{
		{"store fails", putFailingCache{}, 1},
		{"no cache", nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, llmtest.WithAPIKey("sk-test"), llmtest.WithScript(llmtest.OpenAI(llmtest.Completion{
				Content: `{"plan": [{"id": "p1", "tokens": 30}]}`, PromptTokens: 200, CompletionTokens: 40,
			})))
			cfg := plannerConfig(srv, tc.cache)
			var mu sync.Mutex
			var reported []error
			cfg.CacheStoreFailed = func(_ context.Context, err error) {
				mu.Lock()
				defer mu.Unlock()
				reported = append(reported, err)
			}
			resp, err := servePlanner(t, cfg).CreatePlan(context.Background(), &triagev1.CreatePlanRequest{
				Endpoint: &triagev1.CreatePlanRequest_EndpointName{EndpointName: "qwen"}, Problems: problems(2), Budget: 100,
			})
			if err != nil {
				t.Fatalf("CreatePlan: %v; want the plan", err)
			}
			if got := resp.GetParsed().GetPlan(); len(got) != 1 || got[0].GetId() != "p1" || resp.GetUsage().GetOutputTokens() != 40 || resp.GetUsage().GetPromptTokens() != 200 {
				t.Errorf("plan %v usage %v; want p1:30 and the call's usage", got, resp.GetUsage())
			}
			mu.Lock()
			defer mu.Unlock()
			if len(reported) != tc.fails || (tc.fails > 0 && !strings.Contains(reported[0].Error(), "connection refused")) {
				t.Errorf("reported %v; want %d cache failure(s)", reported, tc.fails)
			}
		})
	}
}

func TestCreatePlanTruncatedIsRecorded(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithScript(llmtest.Truncated(llmtest.OpenAI, llmtest.Completion{
		Content: `{"plan": [{"id": "p1", "tokens": 30`, PromptTokens: 10, CompletionTokens: 4096,
	})))
	c := newPlanner(t, srv, nil)
	resp, err := c.CreatePlan(context.Background(), &triagev1.CreatePlanRequest{
		Endpoint: &triagev1.CreatePlanRequest_EndpointName{EndpointName: "qwen"}, Problems: problems(2), Budget: 100,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !resp.GetTruncated() || resp.GetFinishReason() != "length" {
		t.Errorf("truncated %v finish %q", resp.GetTruncated(), resp.GetFinishReason())
	}
}

func TestStrategies(t *testing.T) {
	c := newPlanner(t, llmtest.NewServer(t), nil)
	run := func(s triagev1.PlannerStrategy, seed uint64) []*triagev1.PlanStep {
		t.Helper()
		resp, err := c.CreatePlan(context.Background(), &triagev1.CreatePlanRequest{Problems: problems(10), Budget: 10_000, Strategy: s, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if resp.GetParsed().GetStatus() != triagev1.ParseStatus_PARSE_STATUS_OK || resp.GetParsed().GetPlannedTokens() > 10_000 || resp.GetPrompt() != "" {
			t.Errorf("%v: parsed %v", s, resp.GetParsed())
		}
		return resp.GetParsed().GetPlan()
	}
	ids := func(steps []*triagev1.PlanStep) string {
		var out []string
		for _, st := range steps {
			out = append(out, st.GetId())
		}
		return strings.Join(out, ",")
	}
	inOrder := run(triagev1.PlannerStrategy_PLANNER_STRATEGY_ALL_IN_ORDER, 0)
	if ids(inOrder) != "p1,p2,p3,p4,p5,p6,p7,p8,p9,p10" || inOrder[0].GetTokens() != 1000 {
		t.Errorf("all_in_order = %v", inOrder)
	}
	shortest := run(triagev1.PlannerStrategy_PLANNER_STRATEGY_SHORTEST_FIRST, 0)
	for k := 1; k < len(shortest); k++ {
		if shortest[k].GetTokens() < shortest[k-1].GetTokens() {
			t.Errorf("shortest_first not by length: %v", shortest)
		}
	}
	r1, r1again, r2 := run(triagev1.PlannerStrategy_PLANNER_STRATEGY_RANDOM, 1), run(triagev1.PlannerStrategy_PLANNER_STRATEGY_RANDOM, 1), run(triagev1.PlannerStrategy_PLANNER_STRATEGY_RANDOM, 2)
	if ids(r1) != ids(r1again) || ids(r1) == ids(r2) || len(r1) != 10 {
		t.Errorf("random: seed 1 %s / %s, seed 2 %s", ids(r1), ids(r1again), ids(r2))
	}
}

func TestRepairPlan(t *testing.T) {
	c := newPlanner(t, llmtest.NewServer(t), nil)
	budget := int64(1500)
	resp, err := c.RepairPlan(context.Background(), &triagev1.RepairPlanRequest{RawOutput: messyAnswer, ProblemIds: []string{"p1", "p2", "p3"}, Budget: &budget})
	if err != nil {
		t.Fatal(err)
	}
	if p := resp.GetParsed(); !p.GetOverBudget() || len(p.GetPlan()) != 2 {
		t.Errorf("parsed = %v", p)
	}
	resp, err = c.RepairPlan(context.Background(), &triagev1.RepairPlanRequest{RawOutput: "I cannot help with that.", ProblemIds: []string{"p1"}})
	if err != nil || resp.GetParsed().GetStatus() != triagev1.ParseStatus_PARSE_STATUS_UNPARSEABLE || resp.GetParsed().GetParseError() == "" {
		t.Errorf("unparseable: %v, %v", resp, err)
	}
}

func TestValidation(t *testing.T) {
	c := newPlanner(t, llmtest.NewServer(t), nil)
	tests := []struct {
		name   string
		req    *triagev1.CreatePlanRequest
		fields string
	}{
		{"no endpoint", &triagev1.CreatePlanRequest{Problems: problems(1)}, "endpoint"},
		{"unknown endpoint", &triagev1.CreatePlanRequest{Endpoint: &triagev1.CreatePlanRequest_EndpointName{EndpointName: "gpt"}}, "endpoint_name"},
		{"bad inline", &triagev1.CreatePlanRequest{Endpoint: &triagev1.CreatePlanRequest_InlineEndpoint{InlineEndpoint: &triagev1.LLMEndpoint{BaseUrl: "ftp://x"}}},
			"inline_endpoint inline_endpoint.model inline_endpoint.mode"},
		{"endpoint with a strategy", &triagev1.CreatePlanRequest{Strategy: triagev1.PlannerStrategy_PLANNER_STRATEGY_RANDOM,
			Endpoint: &triagev1.CreatePlanRequest_EndpointName{EndpointName: "qwen"}}, "endpoint"},
		{"ids and budget", &triagev1.CreatePlanRequest{Strategy: triagev1.PlannerStrategy_PLANNER_STRATEGY_RANDOM, Budget: -1,
			Problems: []*triagev1.PlannerProblem{{Id: "a"}, {Id: ""}, {Id: "a"}, {Id: "d\u202e\u0007"}}}, "problems[1].id problems[2].id problems[3].id budget"},
		{"variant", &triagev1.CreatePlanRequest{Strategy: triagev1.PlannerStrategy_PLANNER_STRATEGY_RANDOM, Variant: 42}, "variant"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.CreatePlan(context.Background(), tt.req)
			var fields []string
			for _, fv := range grpcerr.FieldViolations(err) {
				fields = append(fields, fv.GetField())
			}
			if status.Code(err) != codes.InvalidArgument || strings.Join(fields, " ") != tt.fields {
				t.Errorf("err = %v (fields %v), want InvalidArgument on %s", err, fields, tt.fields)
			}
		})
	}
}

func TestStructuredOutputOnTheWire(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithScript(llmtest.OpenAI(llmtest.Completion{Content: `{"plan":[{"id":"p1","tokens":10}]}`})))
	c := newPlanner(t, srv, nil)
	resp, err := c.CreatePlan(context.Background(), &triagev1.CreatePlanRequest{
		Endpoint: &triagev1.CreatePlanRequest_EndpointName{EndpointName: "qwen"}, Problems: problems(1), Budget: 100,
		StructuredOutput: true,
	})
	if err != nil || resp.GetParsed().GetStatus() != triagev1.ParseStatus_PARSE_STATUS_OK {
		t.Fatalf("%v, %v", resp, err)
	}
	var body struct {
		ResponseFormat struct {
			Type       string `json:"type"`
			JSONSchema struct {
				Name   string         `json:"name"`
				Strict bool           `json:"strict"`
				Schema map[string]any `json:"schema"`
			} `json:"json_schema"`
		} `json:"response_format"`
	}
	if err := json.Unmarshal(srv.Requests()[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	rf := body.ResponseFormat
	if rf.Type != "json_schema" || rf.JSONSchema.Name != "triage_plan" || !rf.JSONSchema.Strict || rf.JSONSchema.Schema["required"] == nil {
		t.Errorf("response_format on the wire = %+v", rf)
	}
}
