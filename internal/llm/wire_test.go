package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/platform/canonjson"
	"github.com/triage-eval/triage/internal/testkit/golden"
)

// TestWireBody sends one request per configuration to the test server and
// compares the body it received, as canonical JSON, with
// testdata/wire/<name>.json; it also checks the key fields directly, so a
// careless -update cannot bless a regression of the go-openai fixes.
func TestWireBody(t *testing.T) {
	schema := map[string]any{
		"type":                 "object",
		"properties":           map[string]any{"plan": map[string]any{"type": "array"}},
		"required":             []any{"plan"},
		"additionalProperties": false,
	}
	tests := []struct {
		name string
		ep   func(*Endpoint)
		req  Request
		// want maps top-level body keys to their expected JSON.
		want map[string]string
		// absent lists top-level keys that must not be sent.
		absent []string
	}{{
		name: "generic_standard_temperature_zero",
		ep:   func(e *Endpoint) { e.MaxOutputTokens = 1024 },
		want: map[string]string{"temperature": `0`, "max_tokens": `1024`, "model": `"test-model"`, "stream": `false`},
		absent: []string{"max_completion_tokens", "reasoning_effort", "chat_template_kwargs", "thinking",
			"response_format"},
	}, {
		name:   "generic_no_limit",
		want:   map[string]string{"temperature": `0`},
		absent: []string{"max_tokens", "max_completion_tokens"},
	}, {
		name: "generic_temperature_0_7",
		ep:   func(e *Endpoint) { e.Temperature = 0.7 },
		want: map[string]string{"temperature": `0.7`},
	}, {
		name:   "omit_temperature",
		ep:     func(e *Endpoint) { e.OmitTemperature = true },
		absent: []string{"temperature"},
	}, {
		name: "openai_extended_default_effort",
		ep: func(e *Endpoint) {
			e.Family, e.Mode, e.Model, e.MaxOutputTokens = FamilyOpenAI, ModeExtended, "o4-mini", 4096
		},
		want:   map[string]string{"reasoning_effort": `"medium"`, "max_completion_tokens": `4096`, "temperature": `0`},
		absent: []string{"max_tokens"},
	}, {
		name: "openai_extended_high",
		ep: func(e *Endpoint) {
			e.Family, e.Mode, e.Model, e.ReasoningEffort = FamilyOpenAI, ModeExtended, "gpt-5", "high"
		},
		want: map[string]string{"reasoning_effort": `"high"`},
	}, {
		name: "openai_standard",
		ep: func(e *Endpoint) {
			e.Family, e.Model, e.MaxOutputTokens = FamilyOpenAI, "gpt-4.1", 512
		},
		want:   map[string]string{"max_completion_tokens": `512`},
		absent: []string{"reasoning_effort", "max_tokens"},
	}, {
		name: "openai_standard_effort_none",
		ep: func(e *Endpoint) {
			e.Family, e.Model, e.ReasoningEffort, e.OmitTemperature = FamilyOpenAI, "gpt-5.1", "none", true
		},
		want:   map[string]string{"reasoning_effort": `"none"`},
		absent: []string{"temperature"},
	}, {
		name: "qwen_extended",
		ep:   func(e *Endpoint) { e.Family, e.Mode, e.MaxOutputTokens = FamilyQwen, ModeExtended, 32768 },
		want: map[string]string{"chat_template_kwargs": `{"enable_thinking":true}`, "max_tokens": `32768`},
	}, {
		name: "qwen_standard",
		ep:   func(e *Endpoint) { e.Family = FamilyQwen },
		want: map[string]string{"chat_template_kwargs": `{"enable_thinking":false}`},
	}, {
		name: "deepseek_extended",
		ep:   func(e *Endpoint) { e.Family, e.Mode = FamilyDeepSeek, ModeExtended },
		want: map[string]string{"thinking": `{"type":"enabled"}`},
	}, {
		name: "deepseek_standard",
		ep:   func(e *Endpoint) { e.Family = FamilyDeepSeek },
		want: map[string]string{"thinking": `{"type":"disabled"}`},
	}, {
		name: "glm_extended",
		ep:   func(e *Endpoint) { e.Family, e.Mode = FamilyGLM, ModeExtended },
		want: map[string]string{"thinking": `{"type":"enabled"}`},
	}, {
		name:   "generic_extended_sends_no_mode_field",
		ep:     func(e *Endpoint) { e.Mode = ModeExtended },
		absent: []string{"reasoning_effort", "chat_template_kwargs", "thinking"},
	}, {
		name: "extra_body_merged",
		ep: func(e *Endpoint) {
			e.Family, e.Mode = FamilyQwen, ModeExtended
			e.ExtraBody = map[string]any{
				"chat_template_kwargs": map[string]any{"thinking_budget": 8192},
				"top_k":                20,
				"repetition_penalty":   1.05,
			}
		},
		want: map[string]string{
			"chat_template_kwargs": `{"enable_thinking":true,"thinking_budget":8192}`,
			"top_k":                `20`,
			"repetition_penalty":   `1.05`,
		},
	}, {
		name: "extra_body_overrides_mode_field",
		ep: func(e *Endpoint) {
			e.Family = FamilyDeepSeek
			e.ExtraBody = map[string]any{"thinking": map[string]any{"type": "enabled", "budget_tokens": 1024}}
		},
		want: map[string]string{"thinking": `{"budget_tokens":1024,"type":"enabled"}`},
	}, {
		name: "max_tokens_field_override",
		ep: func(e *Endpoint) {
			e.Family, e.MaxTokensField, e.MaxOutputTokens = FamilyQwen, MaxCompletionTokensField, 100
		},
		want:   map[string]string{"max_completion_tokens": `100`},
		absent: []string{"max_tokens"},
	}, {
		name: "request_max_tokens_override",
		ep:   func(e *Endpoint) { e.MaxOutputTokens = 100 },
		req: Request{
			Messages:        []Message{{Role: RoleUser, Content: "What is 2+2?"}},
			MaxOutputTokens: 7,
		},
		want: map[string]string{"max_tokens": `7`},
	}, {
		name: "response_format_json_schema",
		ep:   func(e *Endpoint) { e.Family, e.Model = FamilyOpenAI, "gpt-4.1" },
		req: Request{
			Messages: []Message{
				{Role: RoleSystem, Content: "You plan."},
				{Role: RoleUser, Content: "Problems: [id: p1] (points: 1) x < y & z"},
			},
			ResponseFormat: &JSONSchema{Name: "plan", Schema: schema, Strict: true},
		},
		want: map[string]string{
			"response_format": `{"json_schema":{"name":"plan","schema":{"additionalProperties":false,` +
				`"properties":{"plan":{"type":"array"}},"required":["plan"],"type":"object"},"strict":true},"type":"json_schema"}`,
			"messages": `[{"content":"You plan.","role":"system"},` +
				`{"content":"Problems: [id: p1] (points: 1) x < y & z","role":"user"}]`,
		},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			ep := testEndpoint(srv)
			if tc.ep != nil {
				tc.ep(&ep)
			}
			req := tc.req
			if req.Messages == nil {
				req = userRequest("What is 2+2?")
			}
			c := newTestClient(t, ep, &sleeps{})
			if _, err := c.Complete(context.Background(), req); err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("server got %d requests, want 1", len(reqs))
			}
			got := reqs[0].Body
			var fields map[string]json.RawMessage
			if err := json.Unmarshal(got, &fields); err != nil {
				t.Fatalf("body is not a JSON object: %v\n%s", err, got)
			}
			for k, want := range tc.want {
				v, ok := fields[k]
				if !ok {
					t.Errorf("body lacks %q:\n%s", k, got)
					continue
				}
				if g, w := mustCanonical(t, v), mustCanonical(t, []byte(want)); !bytes.Equal(g, w) {
					t.Errorf("%s = %s, want %s", k, g, w)
				}
			}
			for _, k := range tc.absent {
				if v, ok := fields[k]; ok {
					t.Errorf("body has %q = %s, want it absent", k, v)
				}
			}
			// What the cache key is computed from is what was sent.
			w, err := buildWire(c.ep, c.extraBody, req)
			if err != nil {
				t.Fatal(err)
			}
			if keyBody, err := w.body(); err != nil || !bytes.Equal(keyBody, got) {
				t.Errorf("cache key material differs from the wire body (err %v):\nkey  %s\nwire %s", err, keyBody, got)
			}
			compareGolden(t, filepath.Join("testdata", "wire", tc.name+".json"), got)
		})
	}
}

// compareGolden compares got, as canonical JSON indented by two spaces,
// with the golden file (golden.File: -update rewrites it).
func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Indent(&buf, mustCanonical(t, got), "", "  "); err != nil {
		t.Fatal(err)
	}
	buf.WriteByte('\n')
	golden.File(t, path, buf.Bytes())
}

func mustCanonical(t *testing.T, raw []byte) []byte {
	t.Helper()
	c, err := canonjson.Canonical(raw)
	if err != nil {
		t.Fatalf("canonical JSON of %s: %v", raw, err)
	}
	return c
}

// TestAuthorization checks the API key travels from the variable
// APIKeyEnv names to the Authorization header, and nowhere else.
func TestAuthorization(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithAPIKey(testAPIKey))
	c := newTestClient(t, testEndpoint(srv), &sleeps{})
	if _, err := c.Complete(context.Background(), userRequest("hi")); err != nil {
		t.Fatal(err)
	}
	rec := srv.Requests()[0]
	if !rec.Authorized {
		t.Error("server did not see Authorization: Bearer <key from TEST_API_KEY>")
	}
	if got := rec.Header.Get("Authorization"); got != "REDACTED" {
		t.Errorf("recorded Authorization = %q, want the redacted marker", got)
	}
	if bytes.Contains(rec.Body, []byte(testAPIKey)) {
		t.Error("the API key is in the request body")
	}
	if got := rec.Header.Get("Content-Type"); got != "application/json" {
		t.Errorf("Content-Type = %q", got)
	}
}

func TestNoAPIKeyEnvSendsNoAuthorization(t *testing.T) {
	srv := llmtest.NewServer(t)
	ep := testEndpoint(srv)
	ep.APIKeyEnv = ""
	c := newTestClient(t, ep, &sleeps{})
	if _, err := c.Complete(context.Background(), userRequest("hi")); err != nil {
		t.Fatal(err)
	}
	if h := srv.Requests()[0].Header; h.Get("Authorization") != "" {
		t.Errorf("Authorization sent without APIKeyEnv: %q", h.Get("Authorization"))
	}
}
