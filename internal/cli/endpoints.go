package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/platform/jsonloc"
)

// endpointFile is one entry of an endpoints file: a JSON object mapping
// endpoint names to these settings.
type endpointFile struct {
	BaseURL         string         `json:"base_url"`
	APIKeyEnv       string         `json:"api_key_env"`
	Model           string         `json:"model"`
	Mode            string         `json:"mode"`
	Family          string         `json:"family"`
	ReasoningEffort string         `json:"reasoning_effort"`
	MaxOutputTokens int            `json:"max_output_tokens"`
	MaxTokensField  string         `json:"max_tokens_field"`
	Temperature     float64        `json:"temperature"`
	OmitTemperature bool           `json:"omit_temperature"`
	Timeout         string         `json:"timeout"`
	Concurrency     int            `json:"concurrency"`
	MaxAttempts     int            `json:"max_attempts"`
	ExtraBody       map[string]any `json:"extra_body"`

	// Batch says the provider offers the OpenAI Batch API (llm.Endpoint.Batch).
	Batch bool `json:"batch"`

	// Price is what the provider charges (dollars per million tokens);
	// quotes and spend caps read it.
	Price *priceFile `json:"price"`
}

// priceFile is an endpoint's "price" object.
type priceFile struct {
	InputPerMTok  float64  `json:"input_per_mtok"`
	OutputPerMTok float64  `json:"output_per_mtok"`
	BatchFactor   *float64 `json:"batch_factor"`
}

// loadEndpoints reads an endpoints file; problems are reported as
// file:line: name.field: reason. An empty path means no endpoints.
func loadEndpoints(path string) (map[string]llm.Endpoint, error) {
	out := map[string]llm.Endpoint{}
	if path == "" {
		return out, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--endpoints: %w", err)
	}
	lines := jsonloc.Build(data)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var raw map[string]endpointFile
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	names := make([]string, 0, len(raw))
	for name := range raw {
		names = append(names, name)
	}
	slices.Sort(names)
	var problems []error
	for _, name := range names {
		e := raw[name]
		ep := llm.Endpoint{
			Name: name, BaseURL: e.BaseURL, APIKeyEnv: e.APIKeyEnv, Model: e.Model, Mode: e.Mode, Family: e.Family,
			ReasoningEffort: e.ReasoningEffort, MaxOutputTokens: e.MaxOutputTokens, MaxTokensField: e.MaxTokensField,
			Temperature: e.Temperature, OmitTemperature: e.OmitTemperature, Concurrency: e.Concurrency,
			MaxAttempts: e.MaxAttempts, ExtraBody: e.ExtraBody,
		}
		if e.Price != nil {
			ep.Price = &llm.Price{InputPerMTok: e.Price.InputPerMTok, OutputPerMTok: e.Price.OutputPerMTok, BatchFactor: e.Price.BatchFactor}
		}
		ep.Batch = e.Batch
		if e.Timeout != "" {
			d, err := time.ParseDuration(e.Timeout)
			if err != nil {
				problems = append(problems, fmt.Errorf("%s:%d: %s.timeout: %v", path, lines.Line(name+".timeout"), name, err))
				continue
			}
			ep.Timeout = d
		}
		var inv *apperr.InvalidArgumentError
		if err := ep.Validate(); errors.As(err, &inv) {
			for _, v := range inv.Violations {
				problems = append(problems, fmt.Errorf("%s:%d: %s.%s: %s", path, lines.Line(name+"."+v.Field), name, v.Field, v.Description))
			}
			continue
		} else if err != nil {
			problems = append(problems, fmt.Errorf("%s:%d: %s: %v", path, lines.Line(name), name, err))
			continue
		}
		out[name] = ep
	}
	if err := errors.Join(problems...); err != nil {
		return nil, err
	}
	return out, nil
}
