package llmtest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func post(t *testing.T, url, auth string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"model":"m"}`))
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func TestScriptThenHandlerAndLog(t *testing.T) {
	s := NewServer(t, WithAPIKey("k"), WithScript(RateLimited("3"), ServerError()))
	url := s.URL() + "/chat/completions"
	if resp, _ := post(t, url, "Bearer wrong"); resp.StatusCode != 401 {
		t.Errorf("wrong key: status %d, want 401", resp.StatusCode)
	}
	resp, _ := post(t, url, "Bearer k")
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "3" {
		t.Errorf("first scripted reply: %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if resp, _ := post(t, url, "Bearer k"); resp.StatusCode != 500 {
		t.Errorf("second scripted reply: %d", resp.StatusCode)
	}
	if resp, body := post(t, url, "Bearer k"); resp.StatusCode != 200 || !strings.Contains(string(body), `"content":"ok"`) {
		t.Errorf("default handler: %d %s", resp.StatusCode, body)
	}
	reqs := s.Requests()
	if len(reqs) != 4 || s.Count() != 4 {
		t.Fatalf("logged %d requests, counted %d; want 4", len(reqs), s.Count())
	}
	for i, r := range reqs {
		if r.Header.Get("Authorization") != "REDACTED" || string(r.Body) != `{"model":"m"}` {
			t.Errorf("request %d logged as %v %s", i, r.Header, r.Body)
		}
		if r.Authorized != (i > 0) {
			t.Errorf("request %d: Authorized = %v", i, r.Authorized)
		}
	}
}

func TestHangReleasedByClient(t *testing.T) {
	s := NewServer(t, WithScript(Hang()))
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL()+"/chat/completions", strings.NewReader("{}"))
	start := time.Now()
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Fatal("a hung request answered")
	}
	if time.Since(start) > time.Minute { // the server hangs for ever: this only catches a hang
		t.Error("the client could not give up")
	}
}

func TestLatency(t *testing.T) {
	s := NewServer(t, WithLatency(40*time.Millisecond))
	start := time.Now()
	post(t, s.URL()+"/chat/completions", "")
	if d := time.Since(start); d < 40*time.Millisecond {
		t.Errorf("answered after %s, want ≥ 40ms", d)
	}
	if s.MaxInFlight() != 1 {
		t.Errorf("MaxInFlight = %d", s.MaxInFlight())
	}
}

// TestReasoningApartUsage: the shape's usage leaves the reasoning out of
// completion_tokens and total_tokens and reports it only in
// completion_tokens_details, whatever TotalTokens says.
func TestReasoningApartUsage(t *testing.T) {
	r := ReasoningApart(Completion{Content: "4", PromptTokens: 120, CompletionTokens: 86, TotalTokens: 9999, ReasoningTokens: 7867})
	var body struct {
		Usage struct {
			Prompt     int `json:"prompt_tokens"`
			Completion int `json:"completion_tokens"`
			Total      int `json:"total_tokens"`
			Details    struct {
				Reasoning int `json:"reasoning_tokens"`
			} `json:"completion_tokens_details"`
		} `json:"usage"`
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil || r.Status != http.StatusOK {
		t.Fatalf("status %d, %v: %s", r.Status, err, r.Body)
	}
	u := body.Usage
	if u.Prompt != 120 || u.Completion != 86 || u.Total != 206 || u.Details.Reasoning != 7867 || body.Choices[0].Message.Content != "4" {
		t.Errorf("usage %+v, body %s", u, r.Body)
	}
}

func TestModels(t *testing.T) {
	url := func(s *Server) string { return s.URL() + "/chat/completions" }
	if resp, body := post(t, url(NewServer(t, WithModels("m", "n"))), ""); resp.StatusCode != 200 {
		t.Errorf("a served model: %d %s", resp.StatusCode, body)
	}
	resp, body := post(t, url(NewServer(t, WithModels("other"))), "")
	if resp.StatusCode != 404 || !strings.Contains(string(body), `"code":"model_not_found"`) || !strings.Contains(string(body), "The model `m` does not exist") {
		t.Errorf("a model not served: %d %s", resp.StatusCode, body)
	}
}
