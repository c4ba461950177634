package planner_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/services/planner"
)

// TestListEndpoints: the configured endpoints by name, with model, mode,
// family and output limit, and nothing of their URLs or keys.
func TestListEndpoints(t *testing.T) {
	secrets := map[string]string{"OPENAI_API_KEY": "sk-secret-openai", "QWEN_KEY": "sk-secret-qwen"}
	tests := []struct {
		name      string
		endpoints map[string]llm.Endpoint
		want      string
	}{
		{"none", nil, ""},
		{"sorted by name, family defaulted", map[string]llm.Endpoint{
			"qwen3-think": {BaseURL: "http://10.0.0.7:8000/v1", APIKeyEnv: "QWEN_KEY", Model: "Qwen/Qwen3-32B",
				Mode: llm.ModeExtended, Family: llm.FamilyQwen, MaxOutputTokens: 32768},
			"gpt": {BaseURL: "https://api.openai.com/v1", APIKeyEnv: "OPENAI_API_KEY", Model: "o4-mini",
				Mode: llm.ModeStandard, Family: llm.FamilyOpenAI},
			"local": {BaseURL: "http://127.0.0.1:11434/v1", Model: "llama3", Mode: llm.ModeStandard, MaxOutputTokens: 2048},
		}, "gpt o4-mini SOLVER_MODE_STANDARD openai 0 ; local llama3 SOLVER_MODE_STANDARD generic 2048 ; " +
			"qwen3-think Qwen/Qwen3-32B SOLVER_MODE_EXTENDED qwen 32768 "},
		{"a key unset", map[string]llm.Endpoint{
			"keyless": {BaseURL: "https://h/v1", APIKeyEnv: "UNSET_API_KEY", Model: "m", Mode: llm.ModeStandard},
		}, "keyless m SOLVER_MODE_STANDARD generic 0 its API key is missing: the environment variable its api_key_env names is unset or empty where the planner runs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc := planner.New(planner.Config{Endpoints: tt.endpoints, Getenv: func(k string) string { return secrets[k] }, Now: time.Now})
			c := triagev1.NewPlannerServiceClient(servertest.Start(t, nil,
				server.Service{Name: "planner", Desc: &triagev1.PlannerService_ServiceDesc, Impl: svc}))
			resp, err := c.ListEndpoints(context.Background(), &triagev1.ListEndpointsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range resp.GetEndpoints() {
				got = append(got, fmt.Sprintf("%s %s %v %s %d %s", e.GetName(), e.GetModel(), e.GetMode(), e.GetFamily(), e.GetMaxOutputTokens(), e.GetUnusable()))
			}
			if strings.Join(got, "; ") != tt.want {
				t.Errorf("endpoints:\n%s\nwant\n%s", strings.Join(got, "; "), tt.want)
			}
			wire, err := protojson.Marshal(resp)
			if err != nil {
				t.Fatal(err)
			}
			for _, secret := range []string{"sk-secret", "API_KEY", "QWEN_KEY", "http", "10.0.0.7", "UNSET"} {
				if strings.Contains(string(wire), secret) {
					t.Errorf("the response reveals %q: %s", secret, wire)
				}
			}
		})
	}
}
