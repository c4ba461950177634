package llm

import (
	"encoding/json"
	"fmt"

	"github.com/triage-eval/triage/internal/platform/apperr"
)

// Message roles accepted in a Request.
const (
	// RoleSystem is the system prompt.
	RoleSystem = "system"
	// RoleDeveloper is OpenAI's successor of the system role.
	RoleDeveloper = "developer"
	// RoleUser is a user turn.
	RoleUser = "user"
	// RoleAssistant is a model turn.
	RoleAssistant = "assistant"
)

// Message is one chat turn.
type Message struct {
	// Role is one of the Role constants.
	Role string `json:"role"`
	// Content is the text of the turn.
	Content string `json:"content"`
}

// JSONSchema asks for structured output: it is sent as
// response_format {"type": "json_schema", "json_schema": {...}}.
type JSONSchema struct {
	// Name names the schema (letters, digits, '_' and '-').
	Name string
	// Description optionally tells the model what the output is for.
	Description string
	// Schema is the JSON Schema: a json.RawMessage, []byte of JSON, or any
	// value encoding/json marshals to an object (e.g. map[string]any).
	Schema any
	// Strict asks the provider to enforce the schema exactly.
	Strict bool
}

// Request is one chat completion call.
type Request struct {
	// Messages is the conversation, at least one turn.
	Messages []Message
	// ResponseFormat optionally asks for JSON matching a schema.
	ResponseFormat *JSONSchema
	// MaxOutputTokens overrides Endpoint.MaxOutputTokens when > 0.
	MaxOutputTokens int
	// Sample makes repeated calls of one request distinct (SPEC §9
	// repeated Phase 0): 0 or 1 is the first call, cached as always; j ≥ 2
	// is the j-th, cached under a key naming j, so it is a model call of
	// its own. It never changes the request sent.
	Sample int
}

// validate reports every invalid field of r at once.
func (r Request) validate() error {
	var v apperr.Violations
	if len(r.Messages) == 0 {
		v.Add("messages", "at least one message is required")
	}
	for i, m := range r.Messages {
		switch m.Role {
		case RoleSystem, RoleDeveloper, RoleUser, RoleAssistant:
		default:
			v.Add(fmt.Sprintf("messages[%d].role", i), "must be system, developer, user or assistant, got %q", m.Role)
		}
	}
	if r.Sample < 0 {
		v.Add("sample", "must be >= 0, got %d", r.Sample)
	}
	if r.MaxOutputTokens < 0 {
		v.Add("max_output_tokens", "must be >= 0, got %d", r.MaxOutputTokens)
	}
	if f := r.ResponseFormat; f != nil {
		if f.Name == "" {
			v.Add("response_format.name", "is required")
		}
		if _, err := f.schemaJSON(); err != nil {
			v.Add("response_format.schema", "%v", err)
		}
	}
	return v.Err()
}

// schemaJSON returns the schema as JSON, which must be an object.
func (s *JSONSchema) schemaJSON() (json.RawMessage, error) {
	var raw []byte
	switch x := s.Schema.(type) {
	case nil:
		return nil, fmt.Errorf("is required")
	case json.RawMessage:
		raw = x
	case []byte:
		raw = x
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return nil, fmt.Errorf("cannot be encoded as JSON: %v", err)
		}
		raw = b
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("must be a JSON object")
	}
	return json.RawMessage(raw), nil
}
