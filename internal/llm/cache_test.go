package llm

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/protocol/costrule"
	"github.com/triage-eval/triage/internal/store/pgtest"
)

func openTestCache(t *testing.T, path string) *SQLCache {
	t.Helper()
	c, err := OpenCache(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// cacheLocations are the backends every cache test runs on: a SQLite file,
// and a PostgreSQL schema of the test's own when TRIAGE_TEST_POSTGRES_DSN is
// set.
func cacheLocations(t *testing.T) map[string]func(t *testing.T) string {
	return map[string]func(t *testing.T) string{
		"sqlite":   func(t *testing.T) string { return filepath.Join(t.TempDir(), "cache.db") },
		"postgres": func(t *testing.T) string { return pgtest.Location(t) },
	}
}

// TestCacheBackends runs the durable-cache behaviour on every backend: a
// hit, first-write-wins and reopening.
func TestCacheBackends(t *testing.T) {
	for name, location := range cacheLocations(t) {
		t.Run(name, func(t *testing.T) {
			loc := location(t)
			ctx := context.Background()
			c := openTestCache(t, loc)
			r := Response{Content: "four", ObtainedAt: testNow, Cost: 3}
			if err := c.Put(ctx, "k", r); err != nil {
				t.Fatal(err)
			}
			if err := c.Put(ctx, "k", Response{Content: "five"}); err != nil {
				t.Fatal(err)
			}
			again := openTestCache(t, loc)
			got, ok, err := again.Get(ctx, "k")
			if err != nil || !ok || got.Content != "four" || got.Cost != 3 {
				t.Errorf("Get after reopening = %+v, %v, %v; want the first response", got, ok, err)
			}
			if _, ok, err := again.Get(ctx, "missing"); ok || err != nil {
				t.Errorf("Get of a missing key: %v, %v", ok, err)
			}
			if n, err := again.Len(ctx); n != 1 || err != nil {
				t.Errorf("Len = %d, %v", n, err)
			}
		})
	}
}

func TestCacheHitMakesNoRequest(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithScript(llmtest.VLLM(llmtest.Completion{
		Content: "4", Reasoning: "2+2", PromptTokens: 3, CompletionTokens: 7,
	})))
	cache := openTestCache(t, filepath.Join(t.TempDir(), "cache.db"))
	c := newTestClient(t, testEndpoint(srv), &sleeps{}, WithCache(cache))
	ctx := context.Background()
	first, err := c.Complete(ctx, userRequest("What is 2+2?"))
	if err != nil {
		t.Fatal(err)
	}
	if first.CacheHit {
		t.Error("first call reported a cache hit")
	}
	// A later clock: a hit must keep the original ObtainedAt.
	c.opts.now = func() time.Time { return testNow.Add(time.Hour) }
	second, err := c.Complete(ctx, userRequest("What is 2+2?"))
	if err != nil {
		t.Fatal(err)
	}
	if srv.Count() != 1 {
		t.Fatalf("server saw %d requests, want 1 (the second call must be a hit)", srv.Count())
	}
	if !second.CacheHit {
		t.Error("second call did not report a cache hit")
	}
	if !second.ObtainedAt.Equal(first.ObtainedAt) || second.Content != "4" || second.Reasoning != "2+2" ||
		second.Cost != 7 || string(second.Raw) != string(first.Raw) || second.Attempts != 1 {
		t.Errorf("hit = %+v\nwant the stored %+v", second, first)
	}
	// A different request misses.
	if _, err := c.Complete(ctx, userRequest("What is 3+3?")); err != nil {
		t.Fatal(err)
	}
	if srv.Count() != 2 {
		t.Errorf("server saw %d requests, want 2", srv.Count())
	}
}

func TestCacheDurableAcrossReopen(t *testing.T) {
	srv := llmtest.NewServer(t)
	path := filepath.Join(t.TempDir(), "cache.db")
	ctx := context.Background()

	cache, err := OpenCache(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	c := newTestClient(t, testEndpoint(srv), &sleeps{}, WithCache(cache))
	if _, err := c.Complete(ctx, userRequest("hi")); err != nil {
		t.Fatal(err)
	}
	if err := cache.Close(); err != nil {
		t.Fatal(err)
	}

	reopened := openTestCache(t, path)
	c2 := newTestClient(t, testEndpoint(srv), &sleeps{}, WithCache(reopened))
	r, err := c2.Complete(ctx, userRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if !r.CacheHit || srv.Count() != 1 {
		t.Errorf("after reopening: CacheHit %v, server requests %d; want a hit and 1", r.CacheHit, srv.Count())
	}
	if !r.ObtainedAt.Equal(testNow) {
		t.Errorf("ObtainedAt = %s, want %s", r.ObtainedAt, testNow)
	}
}

func TestCacheOff(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []Option
	}{
		{"default", nil},
		{"nil_cache", []Option{WithCache(nil)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			c := newTestClient(t, testEndpoint(srv), &sleeps{}, tc.opts...)
			for range 2 {
				r, err := c.Complete(context.Background(), userRequest("hi"))
				if err != nil {
					t.Fatal(err)
				}
				if r.CacheHit {
					t.Error("cache hit without a cache")
				}
			}
			if srv.Count() != 2 {
				t.Errorf("server saw %d requests, want 2", srv.Count())
			}
		})
	}
}

// TestCacheKeySample: the first sample (0 or 1) keeps the key entries had
// before repeated samples existed (golden, computed by that code), so
// existing caches stay valid; every later sample has a key of its own.
func TestCacheKeySample(t *testing.T) {
	const before = "0fb2780c88ff470f3ecdb0e47861ae55642a6df6903e237305e23cbdaaebac10"
	ep := Endpoint{Name: "a", BaseURL: "http://h/v1", APIKeyEnv: "K", Model: "m", Mode: ModeStandard,
		Family: FamilyQwen, MaxOutputTokens: 100}.withDefaults()
	w, err := buildWire(ep, nil, userRequest("What is 2+2?"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, tc := range []struct {
		sample int
		want   string // "" means: new and distinct
	}{{0, before}, {1, before}, {2, ""}, {3, ""}, {20, ""}, {1000, ""}} {
		k, err := cacheKey("http://h/v1", &w, tc.sample)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case tc.want != "" && k != tc.want:
			t.Errorf("sample %d: key %s, want the key from before samples %s", tc.sample, k, tc.want)
		case tc.want == "" && k == before:
			t.Errorf("sample %d shares the first sample's key", tc.sample)
		}
		if j, dup := seen[k]; dup && tc.want == "" {
			t.Errorf("samples %d and %d share key %s", j, tc.sample, k)
		}
		seen[k] = tc.sample
	}
	if err := (Request{Messages: userRequest("x").Messages, Sample: -1}).validate(); err == nil {
		t.Error("a negative sample was accepted")
	}
}

// TestCacheKeyCoversWhatIsSent: every change to the request body or the
// base URL changes the key; what is not sent (API key, name, timeouts)
// does not.
func TestCacheKeyCoversWhatIsSent(t *testing.T) {
	base := Endpoint{Name: "a", BaseURL: "http://h/v1", APIKeyEnv: "K", Model: "m", Mode: ModeStandard,
		Family: FamilyQwen, MaxOutputTokens: 100}
	req := userRequest("What is 2+2?")
	key := func(t *testing.T, ep Endpoint, r Request) string {
		t.Helper()
		if err := ep.Validate(); err != nil {
			t.Fatal(err)
		}
		ep = ep.withDefaults()
		extra, err := normalizeObject(ep.ExtraBody)
		if err != nil {
			t.Fatal(err)
		}
		w, err := buildWire(ep, extra, r)
		if err != nil {
			t.Fatal(err)
		}
		k, err := cacheKey(strings.TrimRight(ep.BaseURL, "/"), &w, r.Sample)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	k0 := key(t, base, req)
	if len(k0) != 64 {
		t.Fatalf("key %q is not a hex SHA-256", k0)
	}
	differ := []struct {
		name string
		ep   func(*Endpoint)
		req  func(*Request)
	}{
		{"temperature", func(e *Endpoint) { e.Temperature = 0.6 }, nil},
		{"omit_temperature", func(e *Endpoint) { e.OmitTemperature = true }, nil},
		{"model", func(e *Endpoint) { e.Model = "m2" }, nil},
		{"base_url", func(e *Endpoint) { e.BaseURL = "http://other/v1" }, nil},
		{"mode", func(e *Endpoint) { e.Mode = ModeExtended }, nil},
		{"family", func(e *Endpoint) { e.Family = FamilyDeepSeek }, nil},
		{"max_tokens", func(e *Endpoint) { e.MaxOutputTokens = 101 }, nil},
		{"max_tokens_field", func(e *Endpoint) { e.MaxTokensField = MaxCompletionTokensField }, nil},
		{"extra_body", func(e *Endpoint) { e.ExtraBody = map[string]any{"top_k": 20} }, nil},
		{"message_text", nil, func(r *Request) { r.Messages = []Message{{Role: RoleUser, Content: "What is 2+3?"}} }},
		{"message_role", nil, func(r *Request) { r.Messages = []Message{{Role: RoleSystem, Content: "What is 2+2?"}} }},
		{"extra_message", nil, func(r *Request) {
			r.Messages = []Message{{Role: RoleSystem, Content: "Be brief."}, {Role: RoleUser, Content: "What is 2+2?"}}
		}},
		{"request_max_tokens", nil, func(r *Request) { r.MaxOutputTokens = 5 }},
		{"response_format", nil, func(r *Request) {
			r.ResponseFormat = &JSONSchema{Name: "x", Schema: map[string]any{"type": "object"}}
		}},
	}
	seen := map[string]string{k0: "base"}
	for _, d := range differ {
		ep, r := base, req
		if d.ep != nil {
			d.ep(&ep)
		}
		if d.req != nil {
			d.req(&r)
		}
		k := key(t, ep, r)
		if prev, dup := seen[k]; dup {
			t.Errorf("changing %s gives the same key as %s", d.name, prev)
		}
		seen[k] = d.name
	}
	same := []struct {
		name string
		ep   func(*Endpoint)
	}{
		{"name", func(e *Endpoint) { e.Name = "b" }},
		{"api_key_env", func(e *Endpoint) { e.APIKeyEnv = "OTHER" }},
		{"timeout", func(e *Endpoint) { e.Timeout = 7 }},
		{"concurrency", func(e *Endpoint) { e.Concurrency = 9 }},
		{"max_attempts", func(e *Endpoint) { e.MaxAttempts = 2 }},
		{"trailing_slash", func(e *Endpoint) { e.BaseURL += "/" }},
		{"explicit_defaults", func(e *Endpoint) { e.MaxTokensField = MaxTokensField }},
	}
	for _, s := range same {
		ep := base
		s.ep(&ep)
		if k := key(t, ep, req); k != k0 {
			t.Errorf("changing %s changed the key", s.name)
		}
	}
}

// TestCacheHoldsNoAPIKey: two clients with different keys share entries,
// and the stored row does not contain the key.
func TestCacheHoldsNoAPIKey(t *testing.T) {
	srv := llmtest.NewServer(t)
	path := filepath.Join(t.TempDir(), "cache.db")
	cache := openTestCache(t, path)
	ctx := context.Background()
	for i, secret := range []string{"sk-first-SECRET", "sk-second-SECRET"} {
		c := newTestClient(t, testEndpoint(srv), &sleeps{}, WithCache(cache),
			WithGetenv(func(string) string { return secret }))
		r, err := c.Complete(ctx, userRequest("hi"))
		if err != nil {
			t.Fatal(err)
		}
		if r.CacheHit != (i == 1) {
			t.Errorf("call %d: CacheHit = %v", i, r.CacheHit)
		}
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT key, response, obtained_at FROM llm_cache`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		n++
		var k, doc, at string
		if err := rows.Scan(&k, &doc, &at); err != nil {
			t.Fatal(err)
		}
		for _, field := range []string{k, doc, at} {
			if strings.Contains(field, "SECRET") {
				t.Errorf("stored row contains the API key: %s", field)
			}
		}
		if at != "2026-03-14T15:09:26Z" {
			t.Errorf("obtained_at = %q", at)
		}
	}
	if n != 1 {
		t.Errorf("%d rows, want 1", n)
	}
}

func TestCacheStoresOnlySuccesses(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithScript(
		llmtest.BadRequest("nope"),
		llmtest.Truncated(llmtest.OpenAI, llmtest.Completion{Content: "cut", PromptTokens: 1, CompletionTokens: 16}),
	))
	cache := openTestCache(t, ":memory:")
	c := newTestClient(t, testEndpoint(srv), &sleeps{}, WithCache(cache))
	ctx := context.Background()
	if _, err := c.Complete(ctx, userRequest("a")); err == nil {
		t.Fatal("want the 400")
	}
	if n, _ := cache.Len(ctx); n != 0 {
		t.Fatalf("a failed call stored %d entries", n)
	}
	r, err := c.Complete(ctx, userRequest("b"))
	if err != nil || !r.Truncated {
		t.Fatalf("Complete = %+v, %v; want a truncated response", r, err)
	}
	if n, _ := cache.Len(ctx); n != 1 {
		t.Errorf("a truncated response must be stored; %d entries", n)
	}
	hit, err := c.Complete(ctx, userRequest("b"))
	if err != nil || !hit.CacheHit || !hit.Truncated || hit.Cost != 16 {
		t.Errorf("hit = %+v, %v", hit, err)
	}
}

// failingCache fails every operation.
type failingCache struct{}

func (failingCache) Get(context.Context, string) (Response, bool, error) {
	return Response{}, false, errors.New("disk on fire")
}
func (failingCache) Put(context.Context, string, Response) error { return errors.New("disk on fire") }

func TestCacheErrorsSurface(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newTestClient(t, testEndpoint(srv), &sleeps{}, WithCache(failingCache{}))
	_, err := c.Complete(context.Background(), userRequest("hi"))
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("error = %v, want the cache's", err)
	}
	if srv.Count() != 0 {
		t.Error("a failed lookup must not call the provider")
	}
}

// TestCachePutFailureKeepsResponse: a cache that fails to store a fresh
// response costs the caller nothing: Complete returns the response with no
// error, and the failure goes to WithCacheStoreFailed, or, by default, to
// the slog default logger as a warning — never dropped silently.
func TestCachePutFailureKeepsResponse(t *testing.T) {
	tests := []struct {
		name string
		hook bool // WithCacheStoreFailed set; else the default logger
	}{
		{"reported to the hook", true},
		{"logged by default", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			var reported []error
			var logged bytes.Buffer
			opts := []Option{WithCache(putFailingCache{})}
			if tc.hook {
				opts = append(opts, WithCacheStoreFailed(func(_ context.Context, err error) { reported = append(reported, err) }))
			} else {
				prev := slog.Default()
				slog.SetDefault(slog.New(slog.NewTextHandler(&logged, nil)))
				t.Cleanup(func() { slog.SetDefault(prev) })
			}
			c := newTestClient(t, testEndpoint(srv), &sleeps{}, opts...)
			r, err := c.Complete(context.Background(), userRequest("hi"))
			if err != nil || r.Content != "ok" || r.Cost != 5 {
				t.Fatalf("Complete = %+v, %v; want the response and no error", r, err)
			}
			var got string
			if tc.hook {
				if len(reported) != 1 {
					t.Fatalf("reported %v, want one error", reported)
				}
				var named *EndpointError
				if !errors.As(reported[0], &named) || named.Endpoint != "test" {
					t.Errorf("reported %v, want an *EndpointError naming the endpoint", reported[0])
				}
				got = reported[0].Error()
			} else {
				got = logged.String()
				if !strings.Contains(got, "level=WARN") || !strings.Contains(got, CacheStoreFailedMessage) {
					t.Errorf("log %q, want a warning", got)
				}
			}
			if !strings.Contains(got, "cache store: read-only") {
				t.Errorf("report %q lacks the cache's error", got)
			}
		})
	}
}

// TestCacheKeepsOnlyMeasuredResponses: a response whose usage gives no
// output cost (no usage at all, or 0 output tokens) is returned but not
// cached, so the same call asks the provider again — once the provider
// reports usage, the answer is measured and cached; a measured response
// is cached as always.
func TestCacheKeepsOnlyMeasuredResponses(t *testing.T) {
	tests := []struct {
		name     string
		reply    llmtest.Reply
		measured bool
	}{
		{"no usage", llmtest.NoUsage(llmtest.Completion{Content: "4"}), false},
		{"zero output tokens", llmtest.OpenAI(llmtest.Completion{Content: "4", PromptTokens: 12}), false},
		{"reasoning only", llmtest.ReasoningApart(llmtest.Completion{Content: "4", PromptTokens: 12, ReasoningTokens: 30}), true},
		{"usage", llmtest.OpenAI(llmtest.Completion{Content: "4", PromptTokens: 12, CompletionTokens: 3}), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			measured := llmtest.OpenAI(llmtest.Completion{Content: "4", PromptTokens: 12, CompletionTokens: 3})
			srv := llmtest.NewServer(t, llmtest.WithScript(tc.reply, measured, measured))
			cache := openTestCache(t, filepath.Join(t.TempDir(), "cache.db"))
			var told []error
			c := newTestClient(t, testEndpoint(srv), &sleeps{}, WithCache(cache), WithCacheStoreFailed(func(_ context.Context, err error) { told = append(told, err) }))
			ctx := context.Background()
			first, err := c.Complete(ctx, userRequest("What is 2+2?"))
			if err != nil || first.Content != "4" || first.Measured() != tc.measured {
				t.Fatalf("first call = %+v, %v; want content 4, measured %v", first, err, tc.measured)
			}
			second, err := c.Complete(ctx, userRequest("What is 2+2?"))
			if err != nil {
				t.Fatal(err)
			}
			wantCalls := 1
			if !tc.measured {
				wantCalls = 2 // asked again, and this time measured
			}
			if srv.Count() != wantCalls || second.CacheHit != tc.measured || !second.Measured() {
				t.Errorf("second call: %d server calls, CacheHit %v, cost %d; want %d calls, CacheHit %v", srv.Count(), second.CacheHit, second.Cost, wantCalls, tc.measured)
			}
			if n, err := cache.Len(ctx); n != 1 || err != nil {
				t.Errorf("cache holds %d entries (%v), want 1: the measured answer", n, err)
			}
			// An answer left out is said, once: with a provider that never
			// reports usage the cache would spare no call, unseen.
			if wantTold := !tc.measured; (len(told) == 1 && errors.Is(told[0], ErrUnmeasured)) != wantTold || len(told) > 1 {
				t.Errorf("reported %v, want ErrUnmeasured once: %v", told, wantTold)
			}
		})
	}
}

// putFailingCache misses and fails to store.
type putFailingCache struct{}

func (putFailingCache) Get(context.Context, string) (Response, bool, error) {
	return Response{}, false, nil
}
func (putFailingCache) Put(context.Context, string, Response) error { return errors.New("read-only") }

// TestCacheHitCostFollowsTheRule: an entry stored before the SPEC §1 rule
// counted reasoning reported apart (cost 86, no cost_rule) reads back with
// the cost its stored usage gives today, without a request.
func TestCacheHitCostFollowsTheRule(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithScript(llmtest.ReasoningApart(llmtest.Completion{
		Content: "4", PromptTokens: 120, CompletionTokens: 86, ReasoningTokens: 7867,
	})))
	path := filepath.Join(t.TempDir(), "cache.db")
	c := newTestClient(t, testEndpoint(srv), &sleeps{}, WithCache(openTestCache(t, path)))
	ctx := context.Background()
	if _, err := c.Complete(ctx, userRequest("What is 2+2?")); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var doc string
	if err := db.QueryRow(`SELECT response FROM llm_cache`).Scan(&doc); err != nil {
		t.Fatal(err)
	}
	var old map[string]any
	if err := json.Unmarshal([]byte(doc), &old); err != nil {
		t.Fatal(err)
	}
	if old["cost"] != 7953.0 || old["cost_rule"] != "completion_plus_reasoning" {
		t.Fatalf("stored entry %s; want cost 7953 by completion_plus_reasoning", doc)
	}
	old["cost"] = 86
	delete(old, "cost_rule")
	legacy, _ := json.Marshal(old)
	if _, err := db.Exec(`UPDATE llm_cache SET response = ?`, string(legacy)); err != nil {
		t.Fatal(err)
	}
	hit, err := c.Complete(ctx, userRequest("What is 2+2?"))
	if err != nil || !hit.CacheHit || srv.Count() != 1 {
		t.Fatalf("hit = %+v, %v after %d requests; want a cache hit", hit, err, srv.Count())
	}
	if hit.Cost != 7953 || hit.CostRule != costrule.CompletionPlusReasoning {
		t.Errorf("cached cost %d by %q; want 7953 by %q", hit.Cost, hit.CostRule, costrule.CompletionPlusReasoning)
	}
}
