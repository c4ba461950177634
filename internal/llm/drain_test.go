package llm

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/llm/llmtest"
)

// TestDrainSendsNothingMore: once a Client drains (WithDrain), a call
// waiting for the only concurrency slot ends with ErrNotSent without
// sending, the call in flight is answered, a call made after the drain
// is not sent either, and a cached answer is still served.
func TestDrainSendsNothingMore(t *testing.T) {
	release := make(chan struct{})
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(int, llmtest.Recorded) llmtest.Reply {
		<-release
		return llmtest.OK("ok")
	}))
	ep := testEndpoint(srv)
	ep.Concurrency = 1
	drain := make(chan struct{})
	cache := openTestCache(t, filepath.Join(t.TempDir(), "cache.db"))
	c := newTestClient(t, ep, &sleeps{}, WithDrain(drain), WithCache(cache))
	ctx := context.Background()

	first := make(chan error, 1)
	go func() {
		_, err := c.Complete(ctx, userRequest("first"))
		first <- err
	}()
	for srv.Count() == 0 {
		time.Sleep(time.Millisecond)
	}
	second := make(chan error, 1)
	go func() {
		_, err := c.Complete(ctx, userRequest("second")) // waits for the slot
		second <- err
	}()
	// Either way the call must end ErrNotSent without sending: drained
	// before it reached the slot's wait, or while waiting. The pause makes
	// the wait the usual case.
	time.Sleep(20 * time.Millisecond)
	close(drain)
	if err := <-second; !errors.Is(err, ErrNotSent) || !errors.Is(err, context.Canceled) {
		t.Errorf("the call waiting for a slot: %v, want ErrNotSent (a context.Canceled)", err)
	}
	close(release)
	if err := <-first; err != nil {
		t.Errorf("the call in flight at the drain: %v, want its answer", err)
	}
	if _, err := c.Complete(ctx, userRequest("third")); !errors.Is(err, ErrNotSent) {
		t.Errorf("a call made after the drain: %v, want ErrNotSent", err)
	}
	if r, err := c.Complete(ctx, userRequest("first")); err != nil || !r.CacheHit {
		t.Errorf("the cached call after the drain: %+v, %v, want its cached answer", r, err)
	}
	if n := srv.Count(); n != 1 {
		t.Errorf("the server saw %d requests, want only the one in flight at the drain", n)
	}
}

// TestDrainSendsNoRetry: a call waiting to retry after a 429 ends when
// its Client drains, with a NotSentError that keeps the attempt's error,
// and the retry is never sent.
func TestDrainSendsNoRetry(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithScript(llmtest.RateLimited("3600"), llmtest.OK("ok")))
	ep := testEndpoint(srv)
	ep.MaxAttempts = 3
	drain := make(chan struct{})
	waiting := make(chan struct{})
	sleep := func(ctx context.Context, d time.Duration) error {
		close(waiting)
		<-ctx.Done() // the hour asked for: only the drain ends it
		return ctx.Err()
	}
	c := newTestClient(t, ep, &sleeps{}, WithDrain(drain), WithSleep(sleep))
	done := make(chan error, 1)
	go func() {
		_, err := c.Complete(context.Background(), userRequest("hi"))
		done <- err
	}()
	<-waiting
	close(drain)
	err := <-done
	var ns *NotSentError
	if !errors.As(err, &ns) || ns.Attempts != 1 || !errors.Is(err, ErrNotSent) {
		t.Fatalf("error = %v, want a NotSentError after 1 attempt", err)
	}
	var st *StatusError
	if !errors.As(ns.Last, &st) || st.StatusCode != 429 {
		t.Errorf("the attempt's error = %v, want the 429", ns.Last)
	}
	if n := srv.Count(); n != 1 {
		t.Errorf("the server saw %d requests, want 1 (no retry after the drain)", n)
	}
}
