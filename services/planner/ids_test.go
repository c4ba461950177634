package planner_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm/llmtest"
)

// leakyPool has ids of the kinds SPEC §1 names: a contest position, a
// contest letter, an unsolvable item. Its texts name none of them.
func leakyPool() []*triagev1.PlannerProblem {
	return []*triagev1.PlannerProblem{
		{Id: "2024-I-14", Text: "Find the remainder when the product is divided by the modulus."},
		{Id: "1873_A", Text: "Sort the three cards with at most one swap."},
		{Id: "recSYN0001-abstain", Text: "By what factor does the pressure change?"},
	}
}

// leaks are the ids of leakyPool and the parts of them that must not reach a
// model either.
var leaks = []string{"2024-I-14", "1873_A", "recSYN0001-abstain", "2024-I", "1873", "abstain", "recSYN"}

// words writes a plan as "id:tokens", dropped steps as "id:reason" and
// planner ids as "planner=problem".
func words(p *triagev1.ParsedPlan, ids []*triagev1.PlannerId) (plan, dropped, table string) {
	var a, b, c []string
	for _, st := range p.GetPlan() {
		a = append(a, fmt.Sprintf("%s:%d", st.GetId(), st.GetTokens()))
	}
	for _, d := range p.GetDroppedSteps() {
		b = append(b, fmt.Sprintf("%s:%s", d.GetId(), strings.ToLower(strings.TrimPrefix(d.GetReason().String(), "PLAN_DROP_REASON_"))))
	}
	for _, id := range ids {
		c = append(c, id.GetPlannerId()+"="+id.GetProblemId())
	}
	return strings.Join(a, " "), strings.Join(b, " "), strings.Join(c, " ")
}

const leakyTable = "p1=2024-I-14 p2=1873_A p3=recSYN0001-abstain"

// opaqueAnswer names the problems as a planner shown p1 … p3 would: by
// planner id, by number, once twice, once unknown, once with 0 tokens.
const opaqueAnswer = `{"plan": [{"id": "p2", "tokens": 100}, {"id": 3, "tokens": 50}, {"id": "2", "tokens": 10}, {"id": "p9", "tokens": 5}, {"id": "P1", "tokens": 0}]}`

// TestCreatePlanOpaqueIDs: the model sees p1 … pn and nothing of the
// caller's ids — not in the prompt, not in the structured-output schema,
// nowhere in the request — and the plan comes back in the caller's ids with
// the table that reads the raw output.
func TestCreatePlanOpaqueIDs(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithAPIKey("sk-test"), llmtest.WithScript(llmtest.OpenAI(llmtest.Completion{Content: opaqueAnswer})))
	c := newPlanner(t, srv, nil)
	resp, err := c.CreatePlan(context.Background(), &triagev1.CreatePlanRequest{
		Endpoint: &triagev1.CreatePlanRequest_EndpointName{EndpointName: "qwen"},
		Problems: leakyPool(), Budget: 1000, Domain: "competition math problems", StructuredOutput: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	plan, dropped, table := words(resp.GetParsed(), resp.GetPlannerIds())
	if plan != "1873_A:100 recSYN0001-abstain:50" || dropped != "1873_A:duplicate p9:unknown_id 2024-I-14:zero" || table != leakyTable {
		t.Errorf("plan %q dropped %q planner ids %q", plan, dropped, table)
	}
	if resp.GetRawOutput() != opaqueAnswer || resp.GetParsed().GetPlannedTokens() != 150 {
		t.Errorf("raw %q planned %d", resp.GetRawOutput(), resp.GetParsed().GetPlannedTokens())
	}
	for k := 1; k <= 3; k++ {
		if want := fmt.Sprintf("[id: p%d] (points: 1)\n%s", k, leakyPool()[k-1].GetText()); !strings.Contains(resp.GetPrompt(), want) {
			t.Errorf("prompt lacks %q:\n%s", want, resp.GetPrompt())
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	for _, leak := range leaks {
		if strings.Contains(resp.GetPrompt(), leak) || strings.Contains(string(reqs[0].Body), leak) {
			t.Errorf("%q reached the model:\n%s", leak, reqs[0].Body)
		}
	}
}

// TestStrategiesSpeakPlannerIDs: reference strategies plan over p1 … pn too,
// and return the same table.
func TestStrategiesSpeakPlannerIDs(t *testing.T) {
	c := newPlanner(t, llmtest.NewServer(t), nil)
	tests := []struct {
		strategy triagev1.PlannerStrategy
		plan     string
	}{
		{triagev1.PlannerStrategy_PLANNER_STRATEGY_ALL_IN_ORDER, "2024-I-14:300 1873_A:300 recSYN0001-abstain:300"},
		// Texts of 62, 43 and 40 code points: ⌊900·len/145⌋.
		{triagev1.PlannerStrategy_PLANNER_STRATEGY_SHORTEST_FIRST, "recSYN0001-abstain:248 1873_A:266 2024-I-14:384"},
	}
	for _, tt := range tests {
		t.Run(tt.strategy.String(), func(t *testing.T) {
			resp, err := c.CreatePlan(context.Background(), &triagev1.CreatePlanRequest{Problems: leakyPool(), Budget: 900, Strategy: tt.strategy})
			if err != nil {
				t.Fatal(err)
			}
			plan, dropped, table := words(resp.GetParsed(), resp.GetPlannerIds())
			if plan != tt.plan || dropped != "" || table != leakyTable || resp.GetParsed().GetStatus() != triagev1.ParseStatus_PARSE_STATUS_OK {
				t.Errorf("plan %q dropped %q planner ids %q status %v", plan, dropped, table, resp.GetParsed().GetStatus())
			}
			for _, leak := range leaks {
				if strings.Contains(resp.GetRawOutput(), leak) {
					t.Errorf("raw output %s names %q, not planner ids", resp.GetRawOutput(), leak)
				}
			}
		})
	}
}

// TestRepairPlanOpaqueIDs: with opaque_ids the output is read against
// p1 … pn in the order of problem_ids; without, ids match as written.
func TestRepairPlanOpaqueIDs(t *testing.T) {
	c := newPlanner(t, llmtest.NewServer(t), nil)
	ids := []string{"2024-I-14", "1873_A", "recSYN0001-abstain"}
	tests := []struct {
		name    string
		raw     string
		opaque  bool
		plan    string
		dropped string
		table   string
	}{
		{"opaque", opaqueAnswer, true, "1873_A:100 recSYN0001-abstain:50", "1873_A:duplicate p9:unknown_id 2024-I-14:zero", leakyTable},
		{"opaque: a problem id as written is unknown", `[{"id": "1873_A", "tokens": 7}, {"id": "p1", "tokens": 8}]`, true,
			"2024-I-14:8", "1873_A:unknown_id", leakyTable},
		{"as given: planner ids are unknown", opaqueAnswer, false, "", "p2:unknown_id 3:unknown_id 2:unknown_id p9:unknown_id P1:unknown_id", ""},
		{"as given: problem ids match", `[{"id": "1873_A", "tokens": 7}, {"id": "2024-i-14", "tokens": 8}]`, false, "1873_A:7 2024-I-14:8", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := c.RepairPlan(context.Background(), &triagev1.RepairPlanRequest{RawOutput: tt.raw, ProblemIds: ids, OpaqueIds: tt.opaque})
			if err != nil {
				t.Fatal(err)
			}
			plan, dropped, table := words(resp.GetParsed(), resp.GetPlannerIds())
			if plan != tt.plan || dropped != tt.dropped || table != tt.table {
				t.Errorf("plan %q dropped %q planner ids %q\nwant %q, %q, %q", plan, dropped, table, tt.plan, tt.dropped, tt.table)
			}
		})
	}
	_, err := c.RepairPlan(context.Background(), &triagev1.RepairPlanRequest{RawOutput: "[]", ProblemIds: []string{"a", "a"}, OpaqueIds: true})
	if status.Code(err) != codes.InvalidArgument {
		t.Errorf("repeated ids: %v, want InvalidArgument", err)
	}
}
