package llm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"testing"

	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/platform/canonjson"
)

func TestPrice(t *testing.T) {
	p := Price{InputPerMTok: 1.25, OutputPerMTok: 10}
	tests := []struct {
		name string
		got  float64
		want float64
	}{
		{"dollars", p.Dollars(2_000_000, 100_000), 2.5 + 1},
		{"batched", p.Batched().Dollars(1000, 300), (1000*1.25 + 300*10) / 2 / 1e6},
	}
	for _, tt := range tests {
		if math.Abs(tt.got-tt.want) > 1e-12 {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	if d, ok := p.Pessimistic(400, 8000); !ok || math.Abs(d-(400*1.25+8000*10)/1e6) > 1e-12 {
		t.Errorf("Pessimistic = %v, %v", d, ok)
	}
	if _, ok := p.Pessimistic(400, 0); ok {
		t.Error("no output bound gave a bounded cost")
	}
}

func TestPriceValidate(t *testing.T) {
	for _, x := range []float64{-1, math.NaN(), math.Inf(1)} {
		ep := Endpoint{Name: "e", BaseURL: "http://h/v1", Model: "m", Mode: ModeStandard, Price: &Price{InputPerMTok: x}}
		if err := ep.Validate(); err == nil {
			t.Errorf("price %v accepted", x)
		}
	}
	ep := Endpoint{Name: "e", BaseURL: "http://h/v1", Model: "m", Mode: ModeStandard, Price: &Price{}}
	if err := ep.Validate(); err != nil {
		t.Errorf("zero price: %v", err)
	}
}

func TestEstimateTokens(t *testing.T) {
	tests := []struct {
		msgs []Message
		want int64
	}{
		{[]Message{{Role: RoleUser, Content: ""}}, messageOverhead},
		{[]Message{{Role: RoleUser, Content: "abcd"}}, 1 + messageOverhead},
		{[]Message{{Role: RoleUser, Content: "abcde"}}, 2 + messageOverhead},
		{[]Message{{Role: RoleSystem, Content: "abcd"}, {Role: RoleUser, Content: "ab"}}, 2 + 2*messageOverhead},
	}
	for _, tt := range tests {
		if got := EstimateTokens(Request{Messages: tt.msgs}); got != tt.want {
			t.Errorf("EstimateTokens(%v) = %d, want %d", tt.msgs, got, tt.want)
		}
	}
}

// TestCached checks that Cached finds exactly the requests Complete would
// answer from the cache, on every backend, and asks no provider.
func TestCached(t *testing.T) {
	for name, location := range cacheLocations(t) {
		t.Run(name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			ctx := context.Background()
			c := newTestClient(t, testEndpoint(srv), &sleeps{}, WithCache(openTestCache(t, location(t))))
			if ok, err := c.Cached(ctx, userRequest("hi")); ok || err != nil {
				t.Fatalf("before any call: Cached = %v, %v", ok, err)
			}
			if _, err := c.Complete(ctx, userRequest("hi")); err != nil {
				t.Fatal(err)
			}
			if ok, err := c.Cached(ctx, userRequest("hi")); !ok || err != nil {
				t.Errorf("after the call: Cached = %v, %v", ok, err)
			}
			other := userRequest("hi")
			other.MaxOutputTokens = 7
			if ok, err := c.Cached(ctx, other); ok || err != nil {
				t.Errorf("another token limit: Cached = %v, %v", ok, err)
			}
			if srv.Count() != 1 {
				t.Errorf("server saw %d requests, want 1", srv.Count())
			}
		})
	}
	srv := llmtest.NewServer(t)
	if ok, err := newTestClient(t, testEndpoint(srv), &sleeps{}).Cached(context.Background(), userRequest("hi")); ok || err != nil {
		t.Errorf("no cache: Cached = %v, %v", ok, err)
	}
}

// TestBodyKeyIsTheCanonicalDigest checks that bodyKey, which hashes the
// key material as it writes it, gives the SHA-256 of the canonical JSON of
// {"base_url", "body", "sample", "v"}: the derivation every stored key was
// made by.
func TestBodyKeyIsTheCanonicalDigest(t *testing.T) {
	ep := Endpoint{Name: "e", BaseURL: "http://h:8000/v1?a=<b>&c", Model: "m", Mode: ModeExtended, Family: FamilyQwen, MaxOutputTokens: 9,
		ExtraBody: map[string]any{"top_k": 20, "chat_template_kwargs": map[string]any{"x": "<&>"}}}
	for _, sample := range []int{0, 1, 2, 17} {
		for _, req := range []Request{
			userRequest("plain"),
			userRequest("html <b>&amp;</b> \u2028 \"quoted\" \\ é 😀\n\ttabs"),
			{Messages: []Message{{Role: RoleSystem, Content: "s"}, {Role: RoleUser, Content: "u"}}, ResponseFormat: &JSONSchema{Name: "plan", Schema: map[string]any{"type": "object"}}, MaxOutputTokens: 3},
		} {
			w, err := buildWire(ep.withDefaults(), ep.ExtraBody, req)
			if err != nil {
				t.Fatal(err)
			}
			body, err := w.body()
			if err != nil {
				t.Fatal(err)
			}
			fields := map[string]any{"v": cacheKeyVersion, "base_url": ep.BaseURL, "body": json.RawMessage(body)}
			if sample >= 2 {
				fields["sample"] = sample
			}
			material, err := canonjson.Marshal(fields)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(material)
			got, err := bodyKey(ep.BaseURL, body, sample)
			if want := hex.EncodeToString(sum[:]); got != want || err != nil {
				t.Errorf("sample %d: bodyKey = %s, %v; want %s", sample, got, err, want)
			}
		}
	}
}
