package llm

import (
	"bytes"
	"encoding/json"
	"fmt"

	openai "github.com/sashabaranov/go-openai"

	"github.com/triage-eval/triage/internal/platform/canonjson"
)

// wireRequest is what every attempt of one Complete call sends: the
// request in go-openai's types, and the patch applied to its encoding for
// what those types cannot say (body).
type wireRequest struct {
	chat  openai.ChatCompletionRequest
	patch bodyPatch
	// encoded is body's result, kept once computed: the cache key is its
	// digest and every attempt sends it.
	encoded []byte
}

// bodyPatch is what the transport changes in the JSON body go-openai
// produced, for what go-openai cannot express: a zero temperature
// (omitempty drops it), provider switches it has no field for, and the
// endpoint's extra body.
type bodyPatch struct {
	// defaults are set only when the body lacks the key.
	defaults map[string]any
	// merge is merged over the body: objects key by key, recursively;
	// any other value replaces the body's.
	merge map[string]any
}

// buildWire maps an Endpoint (with defaults applied) and a Request to the
// body fields of the package documentation's table.
func buildWire(ep Endpoint, extraBody map[string]any, req Request) (wireRequest, error) {
	w := wireRequest{
		chat: openai.ChatCompletionRequest{
			Model:    ep.Model,
			Messages: make([]openai.ChatCompletionMessage, len(req.Messages)),
		},
		patch: bodyPatch{defaults: map[string]any{}, merge: map[string]any{}},
	}
	for i, m := range req.Messages {
		w.chat.Messages[i] = openai.ChatCompletionMessage{Role: m.Role, Content: m.Content}
	}
	if !ep.OmitTemperature {
		w.patch.defaults["temperature"] = ep.Temperature
	}
	if maxTokens := int(ep.MaxOutput(req)); maxTokens > 0 {
		// Set by the patch rather than go-openai's MaxTokens or
		// MaxCompletionTokens: its client-side validator rejects
		// max_tokens for model names it believes are reasoning models.
		w.patch.merge[ep.MaxTokensField] = maxTokens
	}
	extended := ep.Mode == ModeExtended
	switch ep.Family {
	case FamilyOpenAI:
		w.chat.ReasoningEffort = ep.ReasoningEffort
	case FamilyQwen:
		w.chat.ChatTemplateKwargs = map[string]any{"enable_thinking": extended}
	case FamilyDeepSeek, FamilyGLM:
		kind := "disabled"
		if extended {
			kind = "enabled"
		}
		w.patch.merge["thinking"] = map[string]any{"type": kind}
	}
	if f := req.ResponseFormat; f != nil {
		schema, err := f.schemaJSON()
		if err != nil {
			return wireRequest{}, fmt.Errorf("response_format.schema: %w", err)
		}
		w.chat.ResponseFormat = &openai.ChatCompletionResponseFormat{
			Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{
				Name:        f.Name,
				Description: f.Description,
				Schema:      schema,
				Strict:      f.Strict,
			},
		}
	}
	mergeInto(w.patch.merge, extraBody)
	return w, nil
}

// body returns the exact bytes the transport sends for w: go-openai's
// encoding of the request (encoding/json, as its request builder does)
// with the patch applied, computed once. The cache key is computed from
// it.
func (w *wireRequest) body() ([]byte, error) {
	if w.encoded != nil {
		return w.encoded, nil
	}
	raw, err := json.Marshal(w.chat)
	if err != nil {
		return nil, err
	}
	if w.encoded, err = patchBody(raw, w.patch); err != nil {
		return nil, err
	}
	return w.encoded, nil
}

// shell is the request handed to go-openai: w's without its messages.
// go-openai checks the parameters and builds the URL and the headers; the
// transport sends body in place of what it encodes, so the messages, most
// of a request, are encoded once, not twice.
func (w *wireRequest) shell() openai.ChatCompletionRequest {
	s := w.chat
	s.Messages = nil
	return s
}

// patchBody applies p to the JSON object raw and returns the result in
// canonical form (see canonicalJSON).
func patchBody(raw []byte, p bodyPatch) ([]byte, error) {
	if out, ok := patchFast(raw, p); ok {
		return out, nil
	}
	return patchDecoded(raw, p)
}

// patchDecoded is patchBody by decoding raw into maps, for any JSON.
func patchDecoded(raw []byte, p bodyPatch) ([]byte, error) {
	body, err := decodeObject(raw)
	if err != nil {
		return nil, fmt.Errorf("request body: %w", err)
	}
	for k, v := range p.defaults {
		if _, ok := body[k]; !ok {
			body[k] = v
		}
	}
	mergeInto(body, p.merge)
	return canonjson.Marshal(body)
}

// mergeInto merges src into dst: where both hold an object the objects are
// merged recursively, otherwise src's value replaces dst's. Objects of dst
// are modified in place, those of src are never modified.
func mergeInto(dst, src map[string]any) {
	for k, sv := range src {
		if sm, ok := sv.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				merged := make(map[string]any, len(dm)+len(sm))
				for dk, dv := range dm {
					merged[dk] = dv
				}
				mergeInto(merged, sm)
				dst[k] = merged
				continue
			}
		}
		dst[k] = sv
	}
}

// decodeObject decodes the JSON object raw, keeping numbers as written.
func decodeObject(raw []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		return nil, err
	}
	if obj == nil {
		return nil, fmt.Errorf("not a JSON object")
	}
	return obj, nil
}

// normalizeObject returns a private copy of m as decoded JSON (objects as
// map[string]any, numbers as json.Number), or an error if m cannot be
// encoded. A nil or empty m gives nil.
func normalizeObject(m map[string]any) (map[string]any, error) {
	if len(m) == 0 {
		return nil, nil
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return decodeObject(raw)
}
