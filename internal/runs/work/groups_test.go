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

// claimCall is one Claim: the keys asked for and how many were taken.
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
// places of the units, yet each claim asks for one whole group of Claim
// units from a multiple of Claim (the last group shorter when Claim does
// not divide the units), and takes all of it or none — two workers that
// meet reach for the same groups rather than overlapping ones, so that
// none ends the run with a part group more than the others.
func TestRunClaimsWholeGroupsWhenWorkersMeet(t *testing.T) {
	for _, tc := range []struct{ units, claim int }{
		{200, 4},
		{202, 4}, // a short last group
		{3, 4},   // fewer units than a group
		{50, 1},
	} {
		t.Run(fmt.Sprintf("%d units, claim %d", tc.units, tc.claim), func(t *testing.T) {
			s := &claimLog{memStore: newMemStore()}
			all := units(tc.units)
			var wg sync.WaitGroup
			for w := range 3 {
				wg.Go(func() {
					opts := work.Options{Concurrency: tc.claim, Leases: work.NewLeases(s, fmt.Sprint("w", w), work.MinLease, time.Now)}
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
			groups := (tc.units + tc.claim - 1) / tc.claim
			if len(s.calls) < groups {
				t.Fatalf("%d claims for %d groups", len(s.calls), groups)
			}
			for _, c := range s.calls {
				first, err := strconv.Atoi(strings.TrimPrefix(c.keys[0], "u"))
				if err != nil {
					t.Fatal(err)
				}
				want := all[first:min(first+tc.claim, len(all))]
				if first%tc.claim != 0 || len(c.keys) != len(want) || c.keys[len(c.keys)-1] != want[len(want)-1].key {
					t.Errorf("a claim asked for %v: not a whole group of %d from a multiple of %d", c.keys, len(want), tc.claim)
				}
				if c.taken != 0 && c.taken != len(c.keys) {
					t.Errorf("a claim took %d of %v: part of a group", c.taken, c.keys)
				}
			}
		})
	}
}
