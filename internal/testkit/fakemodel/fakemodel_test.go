package fakemodel

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/llm/llmtest"
)

func TestParse(t *testing.T) {
	body := []byte(`{"model": "m", "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "Problems: [id: p1] (points: 1) a\n[id: p2] (points: 1) b\n[id: p3] (points: 1) c"}],
 "chat_template_kwargs": {"enable_thinking": true}}`)
	q := Parse(llmtest.Recorded{Body: body})
	if q.Model != "m" || !q.Thinking() || q.IsProbe() {
		t.Errorf("Parse = %+v", q)
	}
	if ids := PlannerIDs(q.Prompt()); !slices.Equal(ids, []string{"p1", "p2", "p3"}) {
		t.Errorf("PlannerIDs = %q", ids)
	}
	if got := Parse(llmtest.Recorded{Body: []byte("not json")}); got.Prompt() != "" || got.IsProbe() {
		t.Errorf("Parse of a non-request = %+v", got)
	}
	probe, _ := json.Marshal(map[string]any{"messages": []llm.Message{{Role: llm.RoleUser, Content: llm.ProbePrompt}}})
	if !Parse(llmtest.Recorded{Body: probe}).IsProbe() {
		t.Error("the probe is not recognised")
	}
}

func TestPlan(t *testing.T) {
	ids := []string{"p1", "p2", "p3"}
	got := Plan(FirstHalf(ids), 700)
	if want := `{"plan": [{"id": "p1", "tokens": 700}]}`; got != want {
		t.Errorf("Plan = %s, want %s", got, want)
	}
	var plan struct {
		Plan []struct {
			ID     string
			Tokens int
		}
	}
	if err := json.Unmarshal([]byte(Plan([]string{`a"b`}, 5)), &plan); err != nil || plan.Plan[0].ID != `a"b` {
		t.Errorf("Plan of an id with a quote: %+v, %v", plan, err)
	}
}

func TestByPrompt(t *testing.T) {
	h := ByPrompt(map[string]llmtest.Reply{"problem p1.": llmtest.OK("one")}, llmtest.BadRequest("unknown"))
	request := func(prompt string) llmtest.Recorded {
		body, _ := json.Marshal(map[string]any{"messages": []llm.Message{{Role: llm.RoleUser, Content: prompt}}})
		return llmtest.Recorded{Body: body}
	}
	if got := h(0, request("Solve problem p1.")); string(got.Body) != string(llmtest.OK("one").Body) {
		t.Errorf("a known prompt got %s", got.Body)
	}
	if got := h(1, request("Solve problem p2.")); got.Status != llmtest.BadRequest("unknown").Status {
		t.Errorf("an unknown prompt got %d %s", got.Status, got.Body)
	}
}

func TestEndpointsFile(t *testing.T) {
	got := EndpointsFile(map[string]Endpoint{
		"q": {BaseURL: "http://127.0.0.1:9/v1", Model: "m", Mode: "extended", MaxAttempts: 2, Timeout: "5s", Temperature: 0.5},
		"p": {BaseURL: "http://127.0.0.1:9/v1", Model: "m", Mode: "standard"},
	})
	var file map[string]map[string]any
	if err := json.Unmarshal([]byte(got), &file); err != nil {
		t.Fatal(err)
	}
	q, p := file["q"], file["p"]
	if q["base_url"] != "http://127.0.0.1:9/v1" || q["mode"] != "extended" || q["max_attempts"] != 2.0 || q["timeout"] != "5s" || q["temperature"] != 0.5 {
		t.Errorf("q = %v", q)
	}
	if len(p) != 3 {
		t.Errorf("p = %v, want only base_url, model and mode", p)
	}
}
