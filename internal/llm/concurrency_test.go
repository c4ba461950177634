package llm

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/llm/llmtest"
)

func TestConcurrencyLimit(t *testing.T) {
	for _, limit := range []int{1, 3, 8} {
		srv := llmtest.NewServer(t, llmtest.WithLatency(30*time.Millisecond))
		ep := testEndpoint(srv)
		ep.Concurrency = limit
		c := newTestClient(t, ep, &sleeps{})
		var wg sync.WaitGroup
		errs := make(chan error, 4*limit)
		for range 4 * limit {
			wg.Go(func() {
				if _, err := c.Complete(context.Background(), userRequest("hi")); err != nil {
					errs <- err
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if got := srv.MaxInFlight(); got != limit {
			t.Errorf("limit %d: server saw %d requests at once, want exactly %d", limit, got, limit)
		}
	}
}

// TestSlotWaitRespectsContext: with the only slot taken by a hung
// request, a second call gives up when its context does, without sending.
func TestSlotWaitRespectsContext(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithScript(llmtest.Hang()))
	ep := testEndpoint(srv)
	ep.Concurrency = 1
	c := newTestClient(t, ep, &sleeps{})
	hungCtx, cancelHung := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.Complete(hungCtx, userRequest("first"))
	}()
	for srv.Count() == 0 {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := c.Complete(ctx, userRequest("second"))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error = %v, want the context's deadline", err)
	}
	if srv.Count() != 1 {
		t.Errorf("server saw %d requests, want 1", srv.Count())
	}
	cancelHung()
	<-done
}
