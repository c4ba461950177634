package llm

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/llm/llmtest"
)

// TestRequestKeyIsCacheKey checks that the spliced key a quote computes is
// the key Complete stores under (cacheKey of the built body), for contents
// that every encoding step treats differently and for requests the splice
// must leave to cacheKey.
func TestRequestKeyIsCacheKey(t *testing.T) {
	endpoints := []Endpoint{
		{Name: "qwen", BaseURL: "http://h:8000/v1?a=<b>&c", Model: "m", Mode: ModeExtended, Family: FamilyQwen, MaxOutputTokens: 9,
			ExtraBody: map[string]any{"top_k": 20, "chat_template_kwargs": map[string]any{"x": "<&>"}}},
		{Name: "openai", BaseURL: "https://api.example/v1", Model: "gpt", Mode: ModeExtended, Family: FamilyOpenAI, ReasoningEffort: "high"},
		{Name: "deepseek", BaseURL: "https://api.example/v1", Model: "ds", Mode: ModeStandard, Family: FamilyDeepSeek, OmitTemperature: true},
		// An extra body holding a stand-in: it comes out twice.
		{Name: "stands", BaseURL: "http://h/v1", Model: "m", Mode: ModeStandard, ExtraBody: map[string]any{"tag": standIn(0)}},
	}
	long := strings.Repeat("Find x < y & y > 0 with \"quotes\", \\ back\\slashes, é, 😀, \u2028 and \x01\n", 300)
	requests := map[string]Request{
		"plain":       userRequest("plain"),
		"unescaped":   userRequest(strings.Repeat("x < y && y > 0 — é … 😀 ", 200)),
		"line sep":    userRequest("a\u2028b"),
		"para sep":    userRequest("a\u2029b"),
		"backslash":   userRequest(`a \ b`),
		"quote":       userRequest(`say "hi"`),
		"tab":         userRequest("a\tb"),
		"newline":     userRequest("a\nb\n"),
		"return":      userRequest("a\r\nb"),
		"backspace":   userRequest("a\bb"),
		"form feed":   userRequest("a\fb"),
		"control":     userRequest("a\x01b"),
		"prompt":      userRequest(strings.Repeat("[id: p1] (points: 1)\nFind \"x\" with x < y & y > 0 — in C:\\dir\ttab\r\n\n", 300)),
		"del":         userRequest("a\x7fb"),
		"escapes":     userRequest("html <b>&amp;</b> \u2028\u2029 \"quoted\" \\ é 😀\n\ttabs \x00\x1f\x7f"),
		"long":        userRequest(long),
		"two":         {Messages: []Message{{Role: RoleSystem, Content: "be brief <ok>"}, {Role: RoleUser, Content: long}}},
		"limited":     {Messages: []Message{{Role: RoleUser, Content: "u"}}, MaxOutputTokens: 5},
		"limited 3":   {Messages: []Message{{Role: RoleUser, Content: "u"}}, MaxOutputTokens: 3}, // the shape of "schema"
		"system":      {Messages: []Message{{Role: RoleSystem, Content: "u"}}},
		"schema":      {Messages: []Message{{Role: RoleUser, Content: "u"}}, ResponseFormat: &JSONSchema{Name: "plan", Schema: map[string]any{"type": "object"}}, MaxOutputTokens: 3},
		"empty":       {Messages: []Message{{Role: RoleSystem, Content: ""}, {Role: RoleUser, Content: "u"}}},
		"invalid":     userRequest("bad \xff\xfe utf-8"),
		"stand-in":    userRequest(`"` + standIn(0) + `"` + standIn(1)),
		"same stands": {Messages: []Message{{Role: RoleUser, Content: standIn(1)}, {Role: RoleUser, Content: standIn(0)}}},
	}
	for _, ep := range endpoints {
		c, err := New(ep, WithGetenv(func(string) string { return "k" }), WithCache(mapCache{}))
		if err != nil {
			t.Fatal(err)
		}
		shared := stubBodies{}
		for name, req := range requests {
			for _, sample := range []int{0, 1, 2, 17} {
				req.Sample = sample
				w, err := buildWire(c.ep, c.extraBody, req)
				if err != nil {
					t.Fatal(err)
				}
				want, err := cacheKey(c.baseURL, &w, sample)
				if err != nil {
					t.Fatal(err)
				}
				if got, err := c.requestKey(req, nil); got != want || err != nil {
					t.Errorf("%s, %s, sample %d: requestKey = %s, %v; want %s", ep.Name, name, sample, got, err, want)
				}
				// Stand-in bodies shared by every request of the endpoint.
				if got, err := c.requestKey(req, shared); got != want || err != nil {
					t.Errorf("%s, %s, sample %d: requestKey with shared stand-ins = %s, %v; want %s", ep.Name, name, sample, got, err, want)
				}
				// The splice is taken wherever it is exact.
				wantSplice := name != "empty" && name != "invalid" && ep.Name != "stands"
				if _, ok, err := splicedKey(c.ep, c.extraBody, c.baseURL, req, nil); ok != wantSplice || err != nil {
					t.Errorf("%s, %s: spliced = %v, %v; want %v", ep.Name, name, ok, err, wantSplice)
				}
			}
		}
	}
}

// TestCachedAll checks that CachedAll finds exactly the requests Complete
// answered, across more keys than one cache query takes, on every backend
// and on a cache that cannot check many keys at once.
func TestCachedAll(t *testing.T) {
	caches := map[string]func(t *testing.T) Cache{"map": func(*testing.T) Cache { return mapCache{} }}
	for name, location := range cacheLocations(t) {
		caches[name] = func(t *testing.T) Cache { return openTestCache(t, location(t)) }
	}
	for name, cache := range caches {
		t.Run(name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			ctx := context.Background()
			c := newTestClient(t, testEndpoint(srv), &sleeps{}, WithCache(cache(t)))
			reqs := make([]Request, 2*hasKeysChunk+100)
			for i := range reqs {
				reqs[i] = userRequest(fmt.Sprintf("prompt %d <&>", i))
			}
			reqs[len(reqs)-1].Sample = 3
			answered := []int{0, hasKeysChunk, len(reqs) - 1}
			for _, i := range answered {
				if _, err := c.Complete(ctx, reqs[i]); err != nil {
					t.Fatal(err)
				}
			}
			got, err := c.CachedAll(ctx, reqs)
			if err != nil {
				t.Fatal(err)
			}
			for i, ok := range got {
				if want := slices.Contains(answered, i); ok != want {
					t.Errorf("request %d: cached = %v, want %v", i, ok, want)
				}
			}
			bad := []Request{userRequest("ok"), {}}
			if _, err := c.CachedAll(ctx, bad); err == nil {
				t.Error("CachedAll of a request without messages: no error")
			}
			if srv.Count() != len(answered) {
				t.Errorf("server saw %d requests, want %d", srv.Count(), len(answered))
			}
		})
	}
}

// TestPlainWord checks the word-at-a-time test against the byte table:
// every byte value at every position among plain and among high bytes,
// and random words.
func TestPlainWord(t *testing.T) {
	all := func(w []byte) bool {
		for _, b := range w {
			if !plainJSON[b] {
				return false
			}
		}
		return true
	}
	for _, fill := range []byte{'a', 0x80, 0xFF, 0x20, 0x21} {
		for pos := range 8 {
			for b := range 256 {
				w := bytes.Repeat([]byte{fill}, 8)
				w[pos] = byte(b)
				if got, want := plainWord(string(w)), all(w); got != want {
					t.Errorf("plainWord(% x) = %v, want %v", w, got, want)
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100_000 {
		w := make([]byte, 8)
		for i := range w {
			w[i] = byte(rng.IntN(256))
		}
		if got, want := plainWord(string(w)), all(w); got != want {
			t.Fatalf("plainWord(% x) = %v, want %v", w, got, want)
		}
	}
}
