package llm

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/platform/apperr"
)

func TestEndpointValidate(t *testing.T) {
	valid := Endpoint{Name: "n", BaseURL: "https://api.example.com/v1", Model: "m", Mode: ModeStandard}
	if err := valid.Validate(); err != nil {
		t.Fatalf("valid endpoint: %v", err)
	}
	tests := []struct {
		name   string
		mutate func(*Endpoint)
		fields []string
	}{
		{"empty", func(e *Endpoint) { *e = Endpoint{} }, []string{"name", "base_url", "model", "mode"}},
		{"relative_url", func(e *Endpoint) { e.BaseURL = "/v1" }, []string{"base_url"}},
		{"ftp_url", func(e *Endpoint) { e.BaseURL = "ftp://h/v1" }, []string{"base_url"}},
		{"credentials_in_url", func(e *Endpoint) { e.BaseURL = "https://u:p@h/v1" }, []string{"base_url"}},
		{"bad_env_name", func(e *Endpoint) { e.APIKeyEnv = "sk-123" }, []string{"api_key_env"}},
		{"bad_mode", func(e *Endpoint) { e.Mode = "thinking" }, []string{"mode"}},
		{"bad_family", func(e *Endpoint) { e.Family = "llama" }, []string{"family"}},
		{"effort_without_openai", func(e *Endpoint) { e.ReasoningEffort = "high" }, []string{"reasoning_effort"}},
		{"negative_numbers", func(e *Endpoint) {
			e.MaxOutputTokens, e.Timeout, e.Concurrency, e.MaxAttempts = -1, -time.Second, -1, -1
		}, []string{"max_output_tokens", "timeout", "concurrency", "max_attempts"}},
		{"timeouts_capped", func(e *Endpoint) { e.Timeout, e.TotalTimeout = 100*time.Hour, MaxTimeout+time.Second }, []string{"timeout", "total_timeout"}},
		{"negative_total_timeout", func(e *Endpoint) { e.TotalTimeout = -time.Second }, []string{"total_timeout"}},
		{"bad_max_tokens_field", func(e *Endpoint) { e.MaxTokensField = "max_new_tokens" }, []string{"max_tokens_field"}},
		{"temperature_range", func(e *Endpoint) { e.Temperature = 2.5 }, []string{"temperature"}},
		{"temperature_and_omit", func(e *Endpoint) { e.Temperature, e.OmitTemperature = 1, true }, []string{"temperature"}},
		{"reserved_extra_body", func(e *Endpoint) {
			e.ExtraBody = map[string]any{"temperature": 1, "top_k": 20, "messages": nil, "max_tokens": 3}
		}, []string{"extra_body.max_tokens", "extra_body.messages", "extra_body.temperature"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ep := valid
			tc.mutate(&ep)
			var inv *apperr.InvalidArgumentError
			if err := ep.Validate(); !errors.As(err, &inv) {
				t.Fatalf("Validate() = %v, want *apperr.InvalidArgumentError", err)
			}
			var got []string
			for _, v := range inv.Violations {
				got = append(got, v.Field)
			}
			if !reflect.DeepEqual(got, tc.fields) {
				t.Errorf("fields = %v, want %v", got, tc.fields)
			}
			if _, err := New(ep); !errors.As(err, &inv) {
				t.Errorf("New accepted an invalid endpoint: %v", err)
			}
		})
	}
}

func TestDefaults(t *testing.T) {
	ep := Endpoint{Name: "n", BaseURL: "http://h/v1", Model: "o4-mini", Mode: ModeExtended, Family: FamilyOpenAI}.withDefaults()
	want := Endpoint{Name: "n", BaseURL: "http://h/v1", Model: "o4-mini", Mode: ModeExtended, Family: FamilyOpenAI,
		ReasoningEffort: "medium", MaxTokensField: MaxCompletionTokensField, Timeout: DefaultTimeout,
		Concurrency: DefaultConcurrency, MaxAttempts: DefaultMaxAttempts}
	if !reflect.DeepEqual(ep, want) {
		t.Errorf("withDefaults =\n %+v\nwant\n %+v", ep, want)
	}
	g := Endpoint{Mode: ModeStandard}.withDefaults()
	if g.Family != FamilyGeneric || g.MaxTokensField != MaxTokensField || g.ReasoningEffort != "" {
		t.Errorf("generic defaults = %+v", g)
	}
}

func TestMissingAPIKey(t *testing.T) {
	ep := Endpoint{Name: "gpt", BaseURL: "https://api.openai.com/v1", APIKeyEnv: "OPENAI_API_KEY", Model: "m", Mode: ModeStandard}
	_, err := New(ep, WithGetenv(func(string) string { return "" }))
	var pre *apperr.PreconditionError
	if !errors.As(err, &pre) || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
		t.Errorf("New = %v, want a precondition error naming OPENAI_API_KEY", err)
	}
}

func TestRequestValidate(t *testing.T) {
	srvless := Endpoint{Name: "n", BaseURL: "http://127.0.0.1:1/v1", Model: "m", Mode: ModeStandard}
	c, err := New(srvless)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		req    Request
		fields []string
	}{
		{"no_messages", Request{}, []string{"messages"}},
		{"bad_role", Request{Messages: []Message{{Role: "tool", Content: "x"}}}, []string{"messages[0].role"}},
		{"negative_max", Request{Messages: []Message{{Role: RoleUser}}, MaxOutputTokens: -1}, []string{"max_output_tokens"}},
		{"schema_missing", Request{Messages: []Message{{Role: RoleUser}}, ResponseFormat: &JSONSchema{}},
			[]string{"response_format.name", "response_format.schema"}},
		{"schema_not_object", Request{Messages: []Message{{Role: RoleUser}},
			ResponseFormat: &JSONSchema{Name: "x", Schema: []byte(`[1]`)}}, []string{"response_format.schema"}},
	}
	for _, tc := range tests {
		_, err := c.Complete(t.Context(), tc.req)
		var inv *apperr.InvalidArgumentError
		if !errors.As(err, &inv) {
			t.Errorf("%s: error = %v, want *apperr.InvalidArgumentError", tc.name, err)
			continue
		}
		var got []string
		for _, v := range inv.Violations {
			got = append(got, v.Field)
		}
		if !reflect.DeepEqual(got, tc.fields) {
			t.Errorf("%s: fields = %v, want %v", tc.name, got, tc.fields)
		}
	}
}
