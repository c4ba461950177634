package llm

import (
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/triage-eval/triage/internal/platform/apperr"
)

// Modes of a solver (SPEC §1): a model without or with its native extended
// reasoning.
const (
	// ModeStandard asks for no extended reasoning.
	ModeStandard = "standard"
	// ModeExtended asks for the model's native thinking.
	ModeExtended = "extended"
)

// Families say how an endpoint switches extended reasoning on and off; see
// the package documentation for the exact body fields each one sends.
const (
	// FamilyOpenAI sends reasoning_effort and max_completion_tokens.
	FamilyOpenAI = "openai"
	// FamilyQwen sends chat_template_kwargs.enable_thinking (vLLM, SGLang).
	FamilyQwen = "qwen"
	// FamilyDeepSeek sends thinking: {"type": "enabled"|"disabled"}.
	FamilyDeepSeek = "deepseek"
	// FamilyGLM sends the same thinking switch as FamilyDeepSeek (Zhipu GLM).
	FamilyGLM = "glm"
	// FamilyGeneric sends no mode field; the model name decides.
	FamilyGeneric = "generic"
)

// Names of the body field that carries the output token limit.
const (
	// MaxTokensField is the classic "max_tokens" field.
	MaxTokensField = "max_tokens"
	// MaxCompletionTokensField is OpenAI's "max_completion_tokens", which
	// reasoning models require and which counts reasoning tokens.
	MaxCompletionTokensField = "max_completion_tokens"
)

// Defaults applied by New to zero fields of an Endpoint.
const (
	// DefaultTimeout bounds one attempt; reasoning models can think for
	// many minutes.
	DefaultTimeout = 10 * time.Minute
	// MaxTimeout is the longest Timeout (and TotalTimeout) an endpoint may
	// set: long enough for a reasoning model's longest answers, short
	// enough that a typo ("100h") cannot hold a call for days.
	MaxTimeout = 30 * time.Minute
	// DefaultConcurrency is how many requests one Client has in flight.
	DefaultConcurrency = 4
	// DefaultMaxAttempts bounds the attempts of one Complete call.
	DefaultMaxAttempts = 5
	// DefaultReasoningEffort is sent by FamilyOpenAI in ModeExtended when
	// Endpoint.ReasoningEffort is empty.
	DefaultReasoningEffort = "medium"
)

// Endpoint configures one solver or planner: where the OpenAI-compatible
// Chat Completions API lives, which model and mode to ask for, and how to
// call it. The zero values of the optional fields mean the defaults above.
type Endpoint struct {
	// Name labels the endpoint in errors; it is not sent.
	Name string
	// BaseURL is the API root that "/chat/completions" is appended to,
	// e.g. "https://api.openai.com/v1" or "http://localhost:8000/v1".
	BaseURL string
	// APIKeyEnv names the environment variable that holds the API key,
	// sent as "Authorization: Bearer <key>". Empty means no Authorization
	// header (local servers). The key itself is never logged, stored nor
	// part of a cache key.
	APIKeyEnv string
	// Model is the provider's model identifier.
	Model string
	// Mode is ModeStandard or ModeExtended.
	Mode string
	// Family is one of the Family constants; empty means FamilyGeneric.
	Family string
	// ReasoningEffort is FamilyOpenAI's reasoning_effort. In ModeExtended
	// it defaults to DefaultReasoningEffort; in ModeStandard it is sent
	// only when set (e.g. "none" or "minimal" for a reasoning model).
	ReasoningEffort string
	// MaxOutputTokens is the output token limit; 0 sends no limit.
	MaxOutputTokens int
	// MaxTokensField names the field carrying the limit: MaxTokensField or
	// MaxCompletionTokensField. Empty follows Family: FamilyOpenAI uses
	// max_completion_tokens, every other family max_tokens.
	MaxTokensField string
	// Temperature is always sent, 0 included (SPEC §7 baselines run at 0).
	Temperature float64
	// OmitTemperature sends no temperature at all, for models that reject
	// the field (e.g. OpenAI reasoning models accept only their default).
	OmitTemperature bool
	// Timeout bounds one attempt; 0 means DefaultTimeout. At most
	// MaxTimeout.
	Timeout time.Duration
	// TotalTimeout, when set, bounds a whole Complete call: every attempt
	// and every wait between them (a provider that never answers costs at
	// most this, not MaxAttempts × Timeout). 0 means no bound beyond the
	// caller's context. At most MaxTimeout.
	TotalTimeout time.Duration
	// Concurrency caps the requests in flight; 0 means DefaultConcurrency.
	Concurrency int
	// MaxAttempts caps the attempts per call; 0 means DefaultMaxAttempts.
	MaxAttempts int
	// ExtraBody is merged into the JSON body last (objects merge key by
	// key, other values replace), e.g. {"chat_template_kwargs":
	// {"thinking_budget": 4096}} or {"top_k": 20}. Keys that have a field
	// of their own (model, messages, stream, n, temperature, max_tokens,
	// max_completion_tokens, response_format) are rejected.
	ExtraBody map[string]any
	// Price, when set, is what the provider charges (quotes and spend
	// caps read it; it is never sent nor part of a cache key).
	Price *Price

	// Batch says the provider offers the OpenAI Batch API (POST /files,
	// POST /batches, GET /batches/{id}, GET /files/{id}/content) under
	// BaseURL, so that Phase 0 may be sent as batches (Client.Prefill). It
	// changes no answer and is not part of SettingsSHA256.
	Batch bool
}

// reservedBodyKey says which field to use instead when k, an ExtraBody
// key, is a body field the Endpoint or Request sets itself.
func reservedBodyKey(k string) (use string, reserved bool) {
	switch k {
	case "model":
		return "model", true
	case "messages":
		return "the request messages", true
	case "stream":
		return "nothing (streaming is not supported)", true
	case "n":
		return "nothing (one choice per call)", true
	case "temperature":
		return "temperature", true
	case MaxTokensField, MaxCompletionTokensField:
		return "max_output_tokens and max_tokens_field", true
	case "response_format":
		return "the request response format", true
	}
	return "", false
}

// isEnvName reports whether s is a portable environment variable name.
func isEnvName(s string) bool {
	for i, r := range s {
		switch {
		case r == '_', 'A' <= r && r <= 'Z', 'a' <= r && r <= 'z':
		case '0' <= r && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return s != ""
}

// Validate reports every invalid field at once as an
// *apperr.InvalidArgumentError whose field names are the snake_case names
// of the Endpoint fields.
func (e Endpoint) Validate() error {
	var v apperr.Violations
	if e.Name == "" {
		v.Add("name", "is required")
	}
	if e.BaseURL == "" {
		v.Add("base_url", "is required")
	} else if u, err := url.Parse(e.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		v.Add("base_url", "must be an absolute http or https URL, got %q", e.BaseURL)
	} else if u.User != nil {
		v.Add("base_url", "must not embed credentials; use api_key_env")
	}
	if e.APIKeyEnv != "" && !isEnvName(e.APIKeyEnv) {
		v.Add("api_key_env", "must be an environment variable name, got %q", e.APIKeyEnv)
	}
	if e.Model == "" {
		v.Add("model", "is required")
	}
	switch e.Mode {
	case ModeStandard, ModeExtended:
	case "":
		v.Add("mode", "is required (%q or %q)", ModeStandard, ModeExtended)
	default:
		v.Add("mode", "must be %q or %q, got %q", ModeStandard, ModeExtended, e.Mode)
	}
	switch e.Family {
	case "", FamilyOpenAI, FamilyQwen, FamilyDeepSeek, FamilyGLM, FamilyGeneric:
	default:
		v.Add("family", "must be one of %q, %q, %q, %q, %q, got %q",
			FamilyOpenAI, FamilyQwen, FamilyDeepSeek, FamilyGLM, FamilyGeneric, e.Family)
	}
	if e.ReasoningEffort != "" && e.Family != FamilyOpenAI {
		v.Add("reasoning_effort", "is only sent by family %q, not %q", FamilyOpenAI, e.family())
	}
	if e.MaxOutputTokens < 0 {
		v.Add("max_output_tokens", "must be >= 0, got %d", e.MaxOutputTokens)
	}
	switch e.MaxTokensField {
	case "", MaxTokensField, MaxCompletionTokensField:
	default:
		v.Add("max_tokens_field", "must be %q or %q, got %q", MaxTokensField, MaxCompletionTokensField, e.MaxTokensField)
	}
	if e.Temperature < 0 || e.Temperature > 2 {
		v.Add("temperature", "must be in [0, 2], got %g", e.Temperature)
	}
	if e.OmitTemperature && e.Temperature != 0 {
		v.Add("temperature", "is set but omit_temperature is true")
	}
	if e.Timeout < 0 || e.Timeout > MaxTimeout {
		v.Add("timeout", "must be in [0, %s], got %s", MaxTimeout, e.Timeout)
	}
	if e.TotalTimeout < 0 || e.TotalTimeout > MaxTimeout {
		v.Add("total_timeout", "must be in [0, %s], got %s", MaxTimeout, e.TotalTimeout)
	}
	if e.Concurrency < 0 {
		v.Add("concurrency", "must be >= 0, got %d", e.Concurrency)
	}
	if e.MaxAttempts < 0 {
		v.Add("max_attempts", "must be >= 0, got %d", e.MaxAttempts)
	}
	if e.Price != nil {
		e.Price.validate(&v, "price")
	}
	keys := make([]string, 0, len(e.ExtraBody))
	for k := range e.ExtraBody {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if use, ok := reservedBodyKey(k); ok {
			v.Add(fmt.Sprintf("extra_body.%s", k), "is reserved; use %s", use)
		}
	}
	return v.Err()
}

// withDefaults returns e with its zero optional fields set to the defaults.
func (e Endpoint) withDefaults() Endpoint {
	e.Family = e.family()
	if e.Timeout == 0 {
		e.Timeout = DefaultTimeout
	}
	if e.Concurrency == 0 {
		e.Concurrency = DefaultConcurrency
	}
	if e.MaxAttempts == 0 {
		e.MaxAttempts = DefaultMaxAttempts
	}
	if e.Family == FamilyOpenAI && e.Mode == ModeExtended && e.ReasoningEffort == "" {
		e.ReasoningEffort = DefaultReasoningEffort
	}
	if e.MaxTokensField == "" {
		e.MaxTokensField = MaxTokensField
		if e.Family == FamilyOpenAI {
			e.MaxTokensField = MaxCompletionTokensField
		}
	}
	return e
}

// family returns e.Family, FamilyGeneric when empty.
func (e Endpoint) family() string {
	if e.Family == "" {
		return FamilyGeneric
	}
	return e.Family
}

// DescribeNames lists the endpoint names for an error message:
// "configured: a, b" or "none are configured".
func DescribeNames(eps map[string]Endpoint) string {
	names := make([]string, 0, len(eps))
	for n := range eps {
		names = append(names, n)
	}
	if len(names) == 0 {
		return "none are configured"
	}
	slices.Sort(names)
	return "configured: " + strings.Join(names, ", ")
}
