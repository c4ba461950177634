package llm

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// settings are the parts of an Endpoint that change what a model answers.
// Where it is, how it is reached and with which key (BaseURL, APIKeyEnv,
// Timeout, Concurrency, MaxAttempts) do not.
type settings struct {
	Model           string         `json:"model"`
	Mode            string         `json:"mode"`
	Family          string         `json:"family"`
	ReasoningEffort string         `json:"reasoning_effort"`
	MaxOutputTokens int            `json:"max_output_tokens"`
	MaxTokensField  string         `json:"max_tokens_field"`
	Temperature     float64        `json:"temperature"`
	OmitTemperature bool           `json:"omit_temperature"`
	ExtraBody       map[string]any `json:"extra_body"`
}

// SettingsSHA256 is the hex SHA-256 of the endpoint's answer-changing
// settings: model, mode, family, reasoning effort, output limit and its
// field, temperature and the extra body. Results record it so that a
// changed setting makes them stale (SPEC §5 freshness); it reveals none of
// the settings.
func (e Endpoint) SettingsSHA256() string {
	raw, err := json.Marshal(settings{
		Model: e.Model, Mode: e.Mode, Family: e.Family, ReasoningEffort: e.ReasoningEffort,
		MaxOutputTokens: e.MaxOutputTokens, MaxTokensField: e.MaxTokensField,
		Temperature: e.Temperature, OmitTemperature: e.OmitTemperature, ExtraBody: e.ExtraBody,
	})
	if err != nil {
		// ExtraBody comes from JSON configuration, so it always encodes.
		panic("llm: endpoint settings must encode: " + err.Error())
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}
