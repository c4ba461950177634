package work_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/runs/work"
)

// claimLog is a memStore that records each claim: the keys asked for and
// how many of them were taken.
type claimLog struct {
	*memStore
	mu    sync.Mutex
	calls []claimCall
}

type claimCall struct {
	keys  []string
	taken int
}

func (s *claimLog) Claim(ctx context.Context, keys, fps []string, worker string, now, until time.Time) (map[string]bool, error) {
	taken, err := s.memStore.Claim(ctx, keys, fps, worker, now, until)
	s.mu.Lock()
	s.calls = append(s.calls, claimCall{keys, len(taken)})
	s.mu.Unlock()
	return taken, err
}

// TestRunClaimsWholeGroupsWhenWorkersMeet: workers start at different
// places of the units (w0 and w1 at none of the group boundaries), yet
// each claim asks for one whole group of Claim units from a boundary, and
// takes all of it or none — two workers that meet reach for the same
// groups rather than overlapping ones, so that none ends the run with a
// part group more than the others.
func TestRunClaimsWholeGroupsWhenWorkersMeet(t *testing.T) {
	const claim = 4
	s := &claimLog{memStore: newMemStore()}
	all := units(200)
	var wg sync.WaitGroup
	for w := range 3 {
		wg.Go(func() {
			opts := work.Options{Concurrency: claim, Leases: work.NewLeases(s, fmt.Sprint("w", w), time.Second, time.Now)}
			err := work.Run(context.Background(), opts, all, func(_ context.Context, batch []unit) error {
				for _, u := range batch {
					time.Sleep(100 * time.Microsecond)
					s.store(u.key, u.fp)
				}
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if len(s.calls) < len(all)/claim {
		t.Fatalf("%d claims for %d units in groups of %d", len(s.calls), len(all), claim)
	}
	for _, c := range s.calls {
		first, err := strconv.Atoi(strings.TrimPrefix(c.keys[0], "u"))
		if err != nil {
			t.Fatal(err)
		}
		if first%claim != 0 || len(c.keys) != claim {
			t.Errorf("a claim asked for %v: not a whole group of %d from a boundary", c.keys, claim)
		}
		if c.taken != 0 && c.taken != len(c.keys) {
			t.Errorf("a claim took %d of %v: part of a group", c.taken, c.keys)
		}
	}
}
