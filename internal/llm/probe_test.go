package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/llm/llmtest"
)

// deadURL is the base URL of a port nothing listens on.
func deadURL(t *testing.T) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	lis.Close()
	return "http://" + addr + "/v1"
}

// TestProbe: a probe answers nil from a live endpoint and, from each way an
// endpoint fails, an error that names the endpoint and that Describe turns
// into the provider's status and message or the system's reason.
func TestProbe(t *testing.T) {
	tests := []struct {
		name   string
		server func(t *testing.T) string // base URL
		key    string                    // the API key the client sends
		want   []string                  // in Describe(err); nil: no error
	}{
		{
			name:   "answers",
			server: func(t *testing.T) string { return llmtest.NewServer(t).URL() },
		},
		{
			name: "cut at the limit still answers",
			server: func(t *testing.T) string {
				return llmtest.NewServer(t, llmtest.WithScript(llmtest.Truncated(llmtest.OpenAI, llmtest.Completion{Content: "", CompletionTokens: 16}))).URL()
			},
		},
		{
			name:   "dead endpoint",
			server: deadURL,
			want:   []string{"gave up after 5 attempts; last error: connection failed: connect: connection refused"},
		},
		{
			name:   "wrong API key",
			server: func(t *testing.T) string { return llmtest.NewServer(t, llmtest.WithAPIKey("the-right-key")).URL() },
			want:   []string{"HTTP 401 Unauthorized (invalid_api_key): Incorrect API key provided."},
		},
		{
			name: "500s",
			server: func(t *testing.T) string {
				return llmtest.NewServer(t, llmtest.WithHandler(func(int, llmtest.Recorded) llmtest.Reply { return llmtest.ServerError() })).URL()
			},
			want: []string{"gave up after 5 attempts; last error: HTTP 500 Internal Server Error (server_error): The server had an error while processing your request."},
		},
		{
			name:   "unknown model",
			server: func(t *testing.T) string { return llmtest.NewServer(t, llmtest.WithModels("another-model")).URL() },
			want:   []string{"HTTP 404 Not Found (model_not_found): The model `test-model` does not exist or you do not have access to it."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ep := Endpoint{Name: "probed", BaseURL: tt.server(t), APIKeyEnv: "TEST_API_KEY", Model: "test-model", Mode: ModeExtended, Family: FamilyQwen}
			var s sleeps
			err := newTestClient(t, ep, &s).Probe(context.Background())
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Probe = %v, want nil", err)
				}
				return
			}
			var epErr *EndpointError
			if err == nil || !errors.As(err, &epErr) || epErr.Endpoint != "probed" {
				t.Fatalf("Probe = %v, want an *EndpointError naming the endpoint", err)
			}
			got := Describe(err)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("Describe = %q, want it to contain %q", got, w)
				}
			}
			if strings.Contains(got, "127.0.0.1") || strings.Contains(got, "http") && !strings.Contains(got, "HTTP") {
				t.Errorf("Describe gives the address: %q", got)
			}
		})
	}
}

// TestProbeRequest: a probe sends ProbePrompt with an output limit of 16
// tokens and the endpoint's mode switch, and is never answered from, nor
// stored in, the cache.
func TestProbeRequest(t *testing.T) {
	srv := llmtest.NewServer(t)
	ep := testEndpoint(srv)
	ep.Mode, ep.Family = ModeExtended, FamilyQwen
	cache := openTestCache(t, filepath.Join(t.TempDir(), "cache.db"))
	var s sleeps
	c := newTestClient(t, ep, &s, WithCache(cache))
	for range 2 {
		if err := c.Probe(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if n := srv.Count(); n != 2 {
		t.Errorf("two probes made %d requests, want 2: a probe is never answered from the cache", n)
	}
	if n, err := cache.Len(context.Background()); n != 0 || err != nil {
		t.Errorf("the cache holds %d entries after probes (%v), want 0", n, err)
	}
	var body struct {
		Messages  []Message      `json:"messages"`
		MaxTokens int            `json:"max_tokens"`
		Kwargs    map[string]any `json:"chat_template_kwargs"`
	}
	if err := json.Unmarshal(srv.Requests()[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	if len(body.Messages) != 1 || body.Messages[0].Content != ProbePrompt || body.MaxTokens != 16 || body.Kwargs["enable_thinking"] != true {
		t.Errorf("probe body = %s", srv.Requests()[0].Body)
	}
}

// TestDescribeFoldsTheMessage: the provider's message comes on one line,
// cut at 300 bytes without splitting a character.
func TestDescribeFoldsTheMessage(t *testing.T) {
	msg := "first line\n\tsecond   line " + strings.Repeat("é", 400)
	got := Describe(&EndpointError{Endpoint: "x", Err: &StatusError{StatusCode: 400, Message: msg}})
	want := "HTTP 400 Bad Request: first line second line "
	if !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "é…") || len(got) > len("HTTP 400 Bad Request: ")+300+len("…") {
		t.Errorf("Describe = %q", got)
	}
}
