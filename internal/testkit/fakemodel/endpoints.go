package fakemodel

import "encoding/json"

// Endpoint is one entry of an endpoints file (the --endpoints format of
// the cli: docs/reference.md), with the fields tests set; a zero field is
// left out, so the file's default holds.
type Endpoint struct {
	BaseURL     string  `json:"base_url"`
	Model       string  `json:"model"`
	Mode        string  `json:"mode"`
	Family      string  `json:"family,omitempty"`
	APIKeyEnv   string  `json:"api_key_env,omitempty"`
	MaxAttempts int     `json:"max_attempts,omitempty"`
	Timeout     string  `json:"timeout,omitempty"`
	Temperature float64 `json:"temperature,omitempty"`
	Batch       bool    `json:"batch,omitempty"`
	Concurrency int     `json:"concurrency,omitempty"`
}

// EndpointsFile returns the content of an endpoints file that defines eps
// under their names.
func EndpointsFile(eps map[string]Endpoint) string {
	b, _ := json.MarshalIndent(eps, "", "  ") // strings and numbers: no error
	return string(b) + "\n"
}
