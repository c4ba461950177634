package llm

import "testing"

func TestSettingsSHA256(t *testing.T) {
	base := Endpoint{Name: "q", BaseURL: "http://a/v1", Model: "m", Mode: ModeExtended, Temperature: 0,
		ExtraBody: map[string]any{"top_k": 20.0, "chat_template_kwargs": map[string]any{"thinking_budget": 4096.0}}}
	same := base
	same.Name, same.BaseURL, same.APIKeyEnv, same.Timeout, same.Concurrency, same.MaxAttempts = "other", "http://b/v1", "KEY", 5, 9, 2
	if base.SettingsSHA256() != same.SettingsSHA256() {
		t.Error("where and how an endpoint is reached changed its settings hash")
	}
	changes := map[string]func(*Endpoint){
		"model":       func(e *Endpoint) { e.Model = "m2" },
		"mode":        func(e *Endpoint) { e.Mode = ModeStandard },
		"family":      func(e *Endpoint) { e.Family = FamilyQwen },
		"effort":      func(e *Endpoint) { e.ReasoningEffort = "high" },
		"max tokens":  func(e *Endpoint) { e.MaxOutputTokens = 100 },
		"field":       func(e *Endpoint) { e.MaxTokensField = MaxCompletionTokensField },
		"temperature": func(e *Endpoint) { e.Temperature = 0.5 },
		"omit":        func(e *Endpoint) { e.OmitTemperature = true },
		"extra body":  func(e *Endpoint) { e.ExtraBody = map[string]any{"top_k": 40.0} },
	}
	for name, change := range changes {
		e := base
		change(&e)
		if e.SettingsSHA256() == base.SettingsSHA256() {
			t.Errorf("%s: the settings hash did not change", name)
		}
	}
}
