package work_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/runs/work"
)

// TestRunDrainsOnStop: once Stop closes, the units in progress finish with
// a live context and are stored, no other unit starts, no claim is left,
// and Run returns ErrStopped; with and without a store.
func TestRunDrainsOnStop(t *testing.T) {
	for _, shared := range []bool{false, true} {
		t.Run(fmt.Sprintf("shared=%v", shared), func(t *testing.T) {
			s := newMemStore()
			stop := make(chan struct{})
			opts := work.Options{Concurrency: 3, Stop: stop}
			if shared {
				opts.Leases = work.NewLeases(s, "w", time.Minute, time.Now)
			}
			var (
				mu                sync.Mutex
				started, finished []string
				inFlight          sync.WaitGroup
				release           = make(chan struct{})
				liveAtTheirEnd    = true
			)
			inFlight.Add(opts.Concurrency)
			go func() {
				inFlight.Wait()
				close(stop)
				close(release)
			}()
			err := work.Run(context.Background(), opts, units(40), func(ctx context.Context, batch []unit) error {
				mu.Lock()
				started = append(started, batch[0].key)
				n := len(started)
				mu.Unlock()
				if n <= opts.Concurrency {
					// The first units are in flight when the stop comes.
					inFlight.Done()
					<-release
				}
				mu.Lock()
				defer mu.Unlock()
				if ctx.Err() != nil {
					liveAtTheirEnd = false
				}
				finished = append(finished, batch[0].key)
				s.store(batch[0].key, batch[0].fp)
				return nil
			})
			if !errors.Is(err, work.ErrStopped) {
				t.Fatalf("run = %v, want ErrStopped", err)
			}
			if len(started) != opts.Concurrency || len(finished) != opts.Concurrency {
				t.Errorf("started %v, finished %v; want the %d in flight, and only them", started, finished, opts.Concurrency)
			}
			if !liveAtTheirEnd {
				t.Error("a unit in flight saw its context end")
			}
			if holders, _ := s.Holders(context.Background()); len(holders) != 0 {
				t.Errorf("claims left: %v", holders)
			}
		})
	}
}
