package llm

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/triage-eval/triage/internal/llm/llmtest"
)

// TestDispatchNotice: the notice comes once for a call sent, retries
// included, and not for one answered from the cache.
func TestDispatchNotice(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithScript(
		llmtest.RateLimited(""),
		llmtest.OpenAI(llmtest.Completion{Content: "4", PromptTokens: 3, CompletionTokens: 7}),
	))
	cache := openTestCache(t, filepath.Join(t.TempDir(), "cache.db"))
	c := newTestClient(t, testEndpoint(srv), &sleeps{}, WithCache(cache))
	notices := 0
	ctx := WithDispatchNotice(context.Background(), func() { notices++ })
	if _, err := c.Complete(ctx, userRequest("What is 2+2?")); err != nil {
		t.Fatal(err)
	}
	if notices != 1 || srv.Count() != 2 {
		t.Fatalf("%d notices for a call sent twice (a retry), want 1; the server got %d requests", notices, srv.Count())
	}
	notices = 0
	ctx = WithDispatchNotice(context.Background(), func() { notices++ })
	r, err := c.Complete(ctx, userRequest("What is 2+2?"))
	if err != nil || !r.CacheHit {
		t.Fatalf("second call: %+v, %v; want a cache hit", r, err)
	}
	if notices != 0 {
		t.Errorf("%d notices for a call answered from the cache, want 0", notices)
	}
}
