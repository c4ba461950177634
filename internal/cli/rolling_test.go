package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/resolver"
	"google.golang.org/grpc/resolver/manual"

	"github.com/triage-eval/triage/internal/llm/llmtest"
	"github.com/triage-eval/triage/internal/testkit/fakemodel"
)

// TestBaselineRidesARollingUpdateOfItsExecutor: a baseline sent to a
// remote Executor whose pod is replaced mid-run (SIGTERM, then the
// Service's name resolves to the new pod only) completes: the leaving
// Executor stores its calls in flight and ends the stream with a
// retryable Unavailable, the baseline sends the batch again, the new pod
// skips what is stored, and no call is asked twice.
func TestBaselineRidesARollingUpdateOfItsExecutor(t *testing.T) {
	s := newQuoteStudy(t)
	aime := studyModel(s)
	var (
		mu    sync.Mutex
		asked = map[string]int{}
	)
	srv := llmtest.NewServer(t, llmtest.WithLatency(100*time.Millisecond), llmtest.WithHandler(func(i int, r llmtest.Recorded) llmtest.Reply {
		q := fakemodel.Parse(r)
		if q.IsProbe() {
			return aime.reply(i, r)
		}
		mu.Lock()
		asked[q.Prompt()]++
		mu.Unlock()
		return rightAnswer(aime, r)
	}))
	endpoints := filepath.Join(s.dir, "served-endpoints.json")
	if err := os.WriteFile(endpoints, fmt.Appendf(nil, `{"q": {"base_url": %q, "model": "qwen3-8b", "mode": "extended", "family": "qwen", "max_attempts": 1, "timeout": "5s", "max_output_tokens": 4000}}`, srv.URL()), 0o644); err != nil {
		t.Fatal(err)
	}
	// Two Executor pods on one ground-truth store, as a Deployment's share
	// its database.
	store := filepath.Join(s.dir, "served-gt.db")
	serve := func() (addr string, stop func()) {
		return serveInTest(t, map[string]string{"TRIAGE_SHUTDOWN_GRACE": "30s"}, "--services", "executor", "--endpoints", endpoints, "--store", store, "--llm-cache", "off")
	}
	oldAddr, stopOld := serve()
	newAddr, stopNew := serve()
	defer stopNew()
	r := manual.NewBuilderWithScheme("triagetestrolling")
	r.InitialState(resolver.State{Addresses: []resolver.Address{{Addr: oldAddr}}})
	resolver.Register(r)
	cfg, err := os.ReadFile(s.cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.write(t, "run.yaml", string(cfg)+"services: {executor: triagetestrolling:///executors}\n")

	env, _, logs := testEnv(nil)
	done := make(chan error, 1)
	go func() { done <- Run(context.Background(), []string{"baseline", "--progress", "off", s.cfg}, env) }()
	waitUntil(t, time.Minute, "six problems asked", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(asked) >= 6
	}, logs.String)
	// The rolling update: the old pod is told to stop, and the Service's
	// name resolves to the new one only.
	r.UpdateState(resolver.State{Addresses: []resolver.Address{{Addr: newAddr}}})
	stopOld()
	if err := <-done; err != nil {
		t.Fatalf("baseline: %v\n%s", err, logs)
	}
	if !strings.Contains(logs.String(), "baseline complete") {
		t.Errorf("the baseline did not complete:\n%s", logs)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != len(s.probs) {
		t.Errorf("%d problems asked, want all %d", len(asked), len(s.probs))
	}
	for prompt, n := range asked {
		if n > 1 {
			t.Errorf("a problem was asked %d times across the update (%.40s…)", n, prompt)
		}
	}
}
