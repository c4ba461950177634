package grading

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/llm/llmtest"
)

const judgeAttempts = 3

func newTestJudge(t *testing.T, srv *llmtest.Server) *LLMJudge {
	t.Helper()
	c, err := llm.New(llm.Endpoint{
		Name: "judge", BaseURL: srv.URL(), Model: "o3-mini-judge", Mode: llm.ModeStandard,
		MaxAttempts: judgeAttempts, Timeout: 5 * time.Second,
	}, llm.WithSleep(func(context.Context, time.Duration) error { return nil }))
	if err != nil {
		t.Fatal(err)
	}
	j, err := NewLLMJudge(c)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func verdictJSON(extracted, reasoning, correct string) string {
	b, _ := json.Marshal(map[string]string{"extracted_final_answer": extracted, "reasoning": reasoning, "correct": correct})
	return string(b)
}

func TestLLMJudgeVerdicts(t *testing.T) {
	const (
		question = "How many moles of water form when 2 moles of hydrogen burn?"
		ref      = "2 moles"
		response = "Explanation: 2 H2 + O2 -> 2 H2O.\nAnswer: two moles\nConfidence: 90%"
	)
	cases := []struct {
		name  string
		reply llmtest.Reply
		same  bool
	}{
		{"yes", llmtest.OK(verdictJSON("two moles", "Two moles is 2 moles.", "yes")), true},
		{"no", llmtest.OK(verdictJSON("three moles", "3 is not 2.", "no")), false},
		{"yes after leaked thinking", llmtest.OK("<think>compare</think>\n" + verdictJSON("two moles", "Same.", "yes")), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, llmtest.WithScript(c.reply))
			j, err := newTestJudge(t, srv).Equivalent(context.Background(), question, ref, response)
			if err != nil || j.Same != c.same || !strings.HasPrefix(j.Why, "extracted ") {
				t.Fatalf("got %+v %v, want %v", j, err, c.same)
			}
			// What the run bills: the provider's usage under the judge's endpoint.
			if want := (JudgeCall{Endpoint: "judge", PromptTokens: 10, OutputTokens: 5}); j.Call == nil || *j.Call != want {
				t.Errorf("call %+v, want %+v", j.Call, want)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			checkJudgeRequest(t, reqs[0].Body, question, ref, response)
		})
	}
}

// checkJudgeRequest checks the bytes the judge sent: temperature 0, the
// strict verdict schema, and one user message with the three texts.
func checkJudgeRequest(t *testing.T, body []byte, question, ref, response string) {
	t.Helper()
	var req struct {
		Model       string   `json:"model"`
		Temperature *float64 `json:"temperature"`
		Messages    []struct {
			Role, Content string
		} `json:"messages"`
		ResponseFormat struct {
			Type       string `json:"type"`
			JSONSchema struct {
				Name   string          `json:"name"`
				Strict bool            `json:"strict"`
				Schema json.RawMessage `json:"schema"`
			} `json:"json_schema"`
		} `json:"response_format"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("request body: %v\n%s", err, body)
	}
	if req.Temperature == nil || *req.Temperature != 0 {
		t.Errorf("temperature %v, want 0 sent explicitly; body %s", req.Temperature, body)
	}
	if !strings.Contains(string(body), `"temperature":0`) {
		t.Errorf("body lacks \"temperature\":0: %s", body)
	}
	rf := req.ResponseFormat
	if rf.Type != "json_schema" || rf.JSONSchema.Name != JudgeSchemaName || !rf.JSONSchema.Strict {
		t.Errorf("response_format %+v", rf)
	}
	var got, want any
	if err := json.Unmarshal(rf.JSONSchema.Schema, &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(judgeSchema, &want); err != nil {
		t.Fatal(err)
	}
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(want)
	if string(gb) != string(wb) {
		t.Errorf("schema sent %s, want %s", gb, wb)
	}
	for _, field := range []string{`"required":["extracted_final_answer","reasoning","correct"]`, `"additionalProperties":false`, `"enum":["yes","no"]`} {
		if !strings.Contains(string(gb), field) {
			t.Errorf("schema lacks %s", field)
		}
	}
	if len(req.Messages) != 1 || req.Messages[0].Role != "user" {
		t.Fatalf("messages %+v", req.Messages)
	}
	msg := req.Messages[0].Content
	for _, s := range []string{"[question]: " + question, "[correct_answer]: " + ref, "[response]: " + response} {
		if !strings.Contains(msg, s) {
			t.Errorf("prompt lacks %q:\n%s", s, msg)
		}
	}
}

func TestLLMJudgeErrors(t *testing.T) {
	// billed: the provider answered, so the call is billed although it
	// gave no verdict.
	cases := []struct {
		name    string
		opts    []llmtest.Option
		want    string
		attempt int
		billed  bool
	}{
		{"malformed verdict", []llmtest.Option{llmtest.WithScript(llmtest.OK(`{"extracted_final_answer":"x","reasoning":"y","correct":"maybe"}`))}, "malformed judge verdict", 1, true},
		{"not JSON", []llmtest.Option{llmtest.WithScript(llmtest.OK("yes, they match"))}, "malformed judge verdict", 1, true},
		{"cut at the token limit", []llmtest.Option{llmtest.WithScript(llmtest.OpenAI(llmtest.Completion{Content: `{"extracted_final_answer":"x","reas`, FinishReason: "length", PromptTokens: 10, CompletionTokens: 64}))}, "output token limit", 1, true},
		{"server 500 after retries", []llmtest.Option{llmtest.WithHandler(func(int, llmtest.Recorded) llmtest.Reply { return llmtest.ServerError() })}, "gave up after 3 attempts", judgeAttempts, false},
		{"bad request", []llmtest.Option{llmtest.WithScript(llmtest.BadRequest("response_format json_schema is not supported"))}, "400", 1, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, c.opts...)
			j, err := newTestJudge(t, srv).Equivalent(context.Background(), "q", "ref", "Answer: x")
			if err == nil || !strings.Contains(err.Error(), c.want) || j.Same {
				t.Fatalf("got %+v, %v; want an error containing %q", j, err, c.want)
			}
			if billed := j.Call != nil && j.Call.PromptTokens == 10; billed != c.billed {
				t.Errorf("call %+v, billed %v, want %v", j.Call, billed, c.billed)
			}
			if n := srv.Count(); n != c.attempt {
				t.Errorf("%d requests, want %d", n, c.attempt)
			}
		})
	}
	t.Run("500 is an exhausted status error", func(t *testing.T) {
		srv := llmtest.NewServer(t, llmtest.WithHandler(func(int, llmtest.Recorded) llmtest.Reply { return llmtest.ServerError() }))
		_, err := newTestJudge(t, srv).Equivalent(context.Background(), "q", "ref", "Answer: x")
		var ex *llm.ExhaustedError
		var st *llm.StatusError
		if !errors.As(err, &ex) || !errors.As(err, &st) || st.StatusCode != 500 {
			t.Errorf("error %v (%T)", err, err)
		}
	})
}

// TestGraderWithLLMJudge: an exact item that matching cannot settle goes
// to the judge through the gateway; a judge failure fails the grading.
func TestGraderWithLLMJudge(t *testing.T) {
	spec := exact("2 moles")
	content := "Explanation: 2 H2 + O2 -> 2 H2O.\nAnswer: two moles\nConfidence: 90%"

	srv := llmtest.NewServer(t, llmtest.WithScript(llmtest.OK(verdictJSON("two moles", "Same amount.", "yes"))))
	v, err := New(nil, newTestJudge(t, srv)).Grade(context.Background(), spec, "How many moles?", content)
	if err != nil || !v.Correct() || !strings.Contains(v.Detail, "Same amount.") {
		t.Errorf("got %+v, %v", v, err)
	}

	srv = llmtest.NewServer(t, llmtest.WithScript(llmtest.OK("{}")))
	if _, err := New(nil, newTestJudge(t, srv)).Grade(context.Background(), spec, "q", content); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("malformed verdict: %v", err)
	}
}

func TestParseJudgeVerdict(t *testing.T) {
	good := verdictJSON("42", "Matches.", "yes")
	ok := []string{good, "  \n" + good + "\n", `{"correct":"no","reasoning":"","extracted_final_answer":"None"}`}
	for _, s := range ok {
		if _, err := ParseJudgeVerdict(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
	bad := map[string]string{
		"empty":           "",
		"not JSON":        "yes",
		"null":            "null",
		"array":           `[` + good + `]`,
		"fenced":          "```json\n" + good + "\n```",
		"trailing text":   good + " I hope this helps.",
		"two objects":     good + good,
		"missing field":   `{"extracted_final_answer":"42","correct":"yes"}`,
		"extra field":     `{"extracted_final_answer":"42","reasoning":"r","correct":"yes","confidence":100}`,
		"capital Yes":     verdictJSON("42", "r", "Yes"),
		"true":            `{"extracted_final_answer":"42","reasoning":"r","correct":true}`,
		"number answer":   `{"extracted_final_answer":42,"reasoning":"r","correct":"yes"}`,
		"cut off":         good[:len(good)-5],
		"only thinking":   "<think>" + good,
		"correct is yes?": verdictJSON("42", "r", "yes?"),
	}
	for name, s := range bad {
		if v, err := ParseJudgeVerdict(s); err == nil {
			t.Errorf("%s: %q parsed as %+v", name, s, v)
		}
	}
}

func TestNewLLMJudgeNeedsTemperatureZero(t *testing.T) {
	c, err := llm.New(llm.Endpoint{Name: "warm", BaseURL: "http://127.0.0.1:1/v1", Model: "m", Mode: llm.ModeStandard, Temperature: 0.7})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewLLMJudge(c); err == nil || !strings.Contains(err.Error(), "temperature") {
		t.Errorf("error %v", err)
	}
	if _, err := NewLLMJudge(nil); err == nil {
		t.Error("nil client accepted")
	}
}
