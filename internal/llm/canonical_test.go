package llm

import (
	"encoding/json"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"
)

// patchCases are bodies and patches on which patchFast must agree with
// patchDecoded, the decoding path it stands in for.
func patchCases(t *testing.T) (bodies [][]byte, patches []bodyPatch) {
	t.Helper()
	texts := []string{
		"plain", "", "<a & b> \"quoted\" back\\slash", "tab\tnew\nline\rcr\bbs\fff",
		"ctl \x00\x01\x1f\x7f", "sep \u2028 \u2029", "é 漢字 🙂", "bad \xff utf8", `\u003c literal`,
	}
	for _, text := range texts {
		raw, err := json.Marshal(openai.ChatCompletionRequest{
			Model:              "m<1>",
			Messages:           []openai.ChatCompletionMessage{{Role: "system", Content: text}, {Role: "user", Content: text + text}},
			ChatTemplateKwargs: map[string]any{"enable_thinking": true, "z": []any{1.5, nil, "x&y"}},
			ReasoningEffort:    "low",
			Temperature:        0.7,
		})
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, raw)
	}
	bodies = append(bodies,
		[]byte(`{"a":{"x":1,"y":{"z":2}},"b":[1],"c":"old"}`),
		[]byte(` { "n" : 1e400 , "big":12345678901234567890, "s":"<a & b>", "e":[], "o":{} } `),
		[]byte(`{"dup":1,"dup":2}`), []byte(`{"k\u0041":1}`), []byte(`{"s":"\u00e9\/"}`),
		[]byte(`{"s":"\u0008\u000A"}`), []byte(`{"s":"\uFFFD"}`), []byte(`{"a":1} trailing`), []byte(`[1]`),
	)
	patches = []bodyPatch{
		{},
		{defaults: map[string]any{"temperature": 0.0}, merge: map[string]any{"max_tokens": 100}},
		{defaults: map[string]any{"temperature": 0.3, "model": "other"}, merge: map[string]any{"thinking": map[string]any{"type": "enabled"}}},
		{merge: map[string]any{"chat_template_kwargs": map[string]any{"b": 1}, "a": map[string]any{"y": 1}}},
		{merge: map[string]any{"messages": "replaced", "c": map[string]any{"new": true}, "b": []any{2}}},
	}
	return bodies, patches
}

func TestPatchFastIsPatchDecoded(t *testing.T) {
	bodies, patches := patchCases(t)
	for _, body := range bodies {
		for _, p := range patches {
			got, ok := patchFast(body, p)
			if !ok {
				continue
			}
			want, err := patchDecoded(body, p)
			if err != nil {
				t.Fatalf("patchFast(%s) accepted a body patchDecoded refuses: %v", body, err)
			}
			if string(got) != string(want) {
				t.Errorf("patchFast(%s, %v)\n = %s\nwant %s", body, p, got, want)
			}
		}
	}
}

func TestPatchFastTakesGoOpenAIBodies(t *testing.T) {
	bodies, patches := patchCases(t)
	for _, body := range bodies[:len(bodies)-9] {
		if strings.Contains(string(body), `\ufffd`) {
			continue // invalid UTF-8, which encoding/json writes as \ufffd: decoded
		}
		if _, ok := patchFast(body, patches[1]); !ok {
			t.Errorf("patchFast refused go-openai's body %s", body)
		}
	}
}

func FuzzPatchFast(f *testing.F) {
	f.Add([]byte(`{"a":{"x":1,"y":{"z":2}},"b":[1],"c":"<old>"}`))
	f.Add([]byte(`{"messages":[{"role":"user","content":"\u003c\n\u2028"}],"n":-1.5e3}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		p := bodyPatch{defaults: map[string]any{"temperature": 0.0}, merge: map[string]any{"max_tokens": 10}}
		got, ok := patchFast(body, p)
		if !ok {
			return
		}
		want, err := patchDecoded(body, p)
		if err != nil || string(got) != string(want) {
			t.Errorf("patchFast(%q) = %s, patchDecoded = %s, %v", body, got, want, err)
		}
	})
}
