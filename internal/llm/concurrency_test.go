package llm

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/llm/llmtest"
)

// TestConcurrencyLimit: a Client keeps exactly Concurrency requests in
// flight. The server holds the first requests until Concurrency of them
// are in flight at once, however slowly the machine starts them, so a
// client that sent fewer would wait out the minute and be seen.
func TestConcurrencyLimit(t *testing.T) {
	for _, limit := range []int{1, 3, 8} {
		var arrived atomic.Int64
		full := make(chan struct{})
		srv := llmtest.NewServer(t, llmtest.WithHandler(func(int, llmtest.Recorded) llmtest.Reply {
			if arrived.Add(1) == int64(limit) {
				close(full)
			}
			select {
			case <-full:
			case <-time.After(time.Minute): // only catches a client that never sends limit at once
			}
			return llmtest.OK("ok")
		}))
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
