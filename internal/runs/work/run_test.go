package work_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/runs/work"
)

// memStore is a work.Store in memory: claims and stored fingerprints.
type memStore struct {
	mu     sync.Mutex
	claims map[string]claim
	stored map[string]string
	// asked records the keys of each Fresh call.
	asked [][]string
}

type claim struct {
	worker string
	until  time.Time
}

func newMemStore() *memStore {
	return &memStore{claims: map[string]claim{}, stored: map[string]string{}}
}

func (s *memStore) Claim(_ context.Context, keys, fps []string, worker string, now, until time.Time) (map[string]bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	taken := map[string]bool{}
	for i, k := range keys {
		if s.stored[k] == fps[i] && fps[i] != "" {
			continue
		}
		if c, held := s.claims[k]; held && c.worker != worker && !c.until.Before(now) {
			continue
		}
		s.claims[k] = claim{worker, until}
		taken[k] = true
	}
	return taken, nil
}

func (s *memStore) Renew(_ context.Context, worker string, until time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, c := range s.claims {
		if c.worker == worker {
			s.claims[k] = claim{worker, until}
		}
	}
	return nil
}

func (s *memStore) Release(_ context.Context, worker string, keys []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range keys {
		if s.claims[k].worker == worker {
			delete(s.claims, k)
		}
	}
	return nil
}

func (s *memStore) Holders(context.Context) (map[string]time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]time.Time{}
	for k, c := range s.claims {
		out[k] = c.until
	}
	return out, nil
}

func (s *memStore) Fresh(_ context.Context, keys []string) (map[string]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked = append(s.asked, slices.Clone(keys))
	out := map[string]string{}
	for _, k := range keys {
		if fp, ok := s.stored[k]; ok {
			out[k] = fp
		}
	}
	return out, nil
}

func (s *memStore) store(k, fp string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stored[k] = fp
}

// unit is a test unit.
type unit struct{ key, fp string }

func (u unit) Key() string         { return u.key }
func (u unit) Fingerprint() string { return u.fp }

func units(n int) []unit {
	out := make([]unit, n)
	for i := range out {
		out[i] = unit{fmt.Sprintf("u%03d", i), "fp"}
	}
	return out
}

// TestRunSharesUnitsBetweenWorkers: three workers on one store do every
// unit exactly once between them, and each counts every unit as done.
func TestRunSharesUnitsBetweenWorkers(t *testing.T) {
	s := newMemStore()
	all := units(200)
	var mu sync.Mutex
	did := map[string]int{}
	var wg sync.WaitGroup
	progress := make([]*work.Progress, 3)
	for w := range 3 {
		progress[w] = &work.Progress{}
		wg.Go(func() {
			opts := work.Options{Concurrency: 4, Leases: work.NewLeases(s, fmt.Sprint("w", w), time.Second, time.Now), Progress: progress[w]}
			err := work.Run(context.Background(), opts, all, func(_ context.Context, batch []unit) error {
				for _, u := range batch {
					time.Sleep(100 * time.Microsecond)
					mu.Lock()
					did[u.key]++
					mu.Unlock()
					s.store(u.key, u.fp)
					progress[w].Done.Add(1)
				}
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for _, u := range all {
		if did[u.key] != 1 {
			t.Errorf("%s done %d times", u.key, did[u.key])
		}
	}
	for w, p := range progress {
		if p.Done.Load() != int64(len(all)) {
			t.Errorf("worker %d counts %d done, want %d", w, p.Done.Load(), len(all))
		}
	}
	if holders, _ := s.Holders(context.Background()); len(holders) != 0 {
		t.Errorf("claims left: %v", holders)
	}
}

// TestRunTakesOverADeadWorkersUnits: units a dead worker holds are done
// once its lease ends.
func TestRunTakesOverADeadWorkersUnits(t *testing.T) {
	s := newMemStore()
	all := units(5)
	dead := work.NewLeases(s, "dead", 50*time.Millisecond, time.Now)
	if taken, err := dead.Take(context.Background(), []string{"u001", "u003"}, []string{"fp", "fp"}); err != nil || len(taken) != 2 {
		t.Fatal(taken, err)
	}
	var did atomic.Int32
	opts := work.Options{Leases: work.NewLeases(s, "live", time.Second, time.Now)}
	err := work.Run(context.Background(), opts, all, func(_ context.Context, batch []unit) error {
		did.Add(int32(len(batch)))
		return nil
	})
	if err != nil || did.Load() != 5 {
		t.Errorf("run: %v, %d units done; want all 5", err, did.Load())
	}
}

// TestRunCountsHeldUnitsAtEachLook: the units counted as held by other
// workers are those still held at the last look, never the ones this worker
// has since taken over or seen stored (the progress line said "waiting for
// 2 cells other workers hold" while it did those two itself).
func TestRunCountsHeldUnitsAtEachLook(t *testing.T) {
	s := newMemStore()
	dead := work.NewLeases(s, "dead", 50*time.Millisecond, time.Now)
	if taken, err := dead.Take(context.Background(), []string{"u001", "u003"}, []string{"fp", "fp"}); err != nil || len(taken) != 2 {
		t.Fatal(taken, err)
	}
	p := &work.Progress{}
	var heldWhileTakenOver []int64
	var mu sync.Mutex
	opts := work.Options{Leases: work.NewLeases(s, "live", time.Second, time.Now), Progress: p}
	err := work.Run(context.Background(), opts, units(5), func(_ context.Context, batch []unit) error {
		for _, u := range batch {
			if u.key == "u001" || u.key == "u003" {
				mu.Lock()
				heldWhileTakenOver = append(heldWhileTakenOver, p.Held.Load())
				mu.Unlock()
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(heldWhileTakenOver) != 2 || slices.Max(heldWhileTakenOver) != 0 {
		t.Errorf("held counts while the dead worker's units were done here: %v, want [0 0]", heldWhileTakenOver)
	}
}

// TestRunLooksOnlyAtHeldUnits: the looks at units other workers hold ask
// the store about those units, not every unit of the run, so that a
// worker waiting for the last units of a large run reads little.
func TestRunLooksOnlyAtHeldUnits(t *testing.T) {
	s := newMemStore()
	dead := work.NewLeases(s, "dead", 50*time.Millisecond, time.Now)
	if taken, err := dead.Take(context.Background(), []string{"u001", "u003"}, []string{"fp", "fp"}); err != nil || len(taken) != 2 {
		t.Fatal(taken, err)
	}
	opts := work.Options{Leases: work.NewLeases(s, "live", time.Second, time.Now)}
	if err := work.Run(context.Background(), opts, units(20), func(context.Context, []unit) error { return nil }); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.asked) == 0 {
		t.Fatal("no look at the held units")
	}
	for _, keys := range s.asked {
		if slices.ContainsFunc(keys, func(k string) bool { return k != "u001" && k != "u003" }) || len(keys) == 0 {
			t.Errorf("a look asked about %v; want only the held units u001 and u003", keys)
		}
	}
}

// storingBetweenReads is a memStore whose other worker stores the unit it
// holds, and gives up its claim, just after the first read of a look
// (Holders or Fresh), before the second; it counts the claims of that
// unit.
type storingBetweenReads struct {
	*memStore
	key, holder string
	once        sync.Once
	claims      atomic.Int64
}

func (s *storingBetweenReads) Claim(ctx context.Context, keys, fps []string, worker string, now, until time.Time) (map[string]bool, error) {
	if slices.Contains(keys, s.key) {
		s.claims.Add(1)
	}
	return s.memStore.Claim(ctx, keys, fps, worker, now, until)
}

func (s *storingBetweenReads) Holders(ctx context.Context) (map[string]time.Time, error) {
	defer s.storeOnce()
	return s.memStore.Holders(ctx)
}

func (s *storingBetweenReads) Fresh(ctx context.Context, keys []string) (map[string]string, error) {
	defer s.storeOnce()
	return s.memStore.Fresh(ctx, keys)
}

func (s *storingBetweenReads) storeOnce() {
	s.once.Do(func() {
		s.store(s.key, "fp")
		_ = s.Release(context.Background(), s.holder, []string{s.key})
	})
}

// TestRunDoesNotRetryAUnitStoredDuringALook: a unit its holder stores
// between a look's two reads is found stored, not offered again.
func TestRunDoesNotRetryAUnitStoredDuringALook(t *testing.T) {
	s := &storingBetweenReads{memStore: newMemStore(), key: "u001", holder: "other"}
	other := work.NewLeases(s, "other", time.Minute, time.Now)
	if taken, err := other.Take(context.Background(), []string{"u001"}, []string{"fp"}); err != nil || len(taken) != 1 {
		t.Fatal(taken, err)
	}
	s.claims.Store(0)
	p := &work.Progress{}
	opts := work.Options{Leases: work.NewLeases(s, "live", time.Minute, time.Now), Progress: p}
	if err := work.Run(context.Background(), opts, units(5), func(context.Context, []unit) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if n := s.claims.Load(); n != 1 {
		t.Errorf("u001 claimed %d times; want once (in the pass, held by another worker), not again once stored", n)
	}
	if got := p.Done.Load(); got != 1 {
		t.Errorf("Done = %d; want 1 (u001, stored by the other worker)", got)
	}
}

// TestRunStopsAtTheFirstErrorAndGivesBack: a failing unit stops the run
// with its error, and no claim is left behind.
func TestRunStopsAtTheFirstErrorAndGivesBack(t *testing.T) {
	s := newMemStore()
	boom := errors.New("boom")
	opts := work.Options{Concurrency: 2, Claim: 10, Leases: work.NewLeases(s, "w", time.Second, time.Now)}
	err := work.Run(context.Background(), opts, units(50), func(ctx context.Context, batch []unit) error {
		if batch[0].key == "u007" {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) {
		t.Errorf("run = %v, want boom", err)
	}
	if holders, _ := s.Holders(context.Background()); len(holders) != 0 {
		t.Errorf("claims left: %v", holders)
	}
}

// TestRunBatchesWithoutAStore: without leases every unit is done, in
// batches of Batch.
func TestRunBatchesWithoutAStore(t *testing.T) {
	var mu sync.Mutex
	var sizes []int
	err := work.Run(context.Background(), work.Options{Batch: 4}, units(10), func(_ context.Context, batch []unit) error {
		mu.Lock()
		defer mu.Unlock()
		sizes = append(sizes, len(batch))
		return nil
	})
	slices.Sort(sizes)
	if err != nil || !slices.Equal(sizes, []int{2, 4, 4}) {
		t.Errorf("run: %v, batches %v; want 4, 4, 2", err, sizes)
	}
}

// TestGroupStoresInTheBackground: items handed over while a group is
// being stored go together in the next one; Wait waits for all; a failed
// store stops the group and Add says so.
func TestGroupStoresInTheBackground(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	var calls [][]int
	g := work.NewGroup(context.Background(), 10, 0, func(_ context.Context, items []int) error {
		mu.Lock()
		calls = append(calls, slices.Clone(items))
		first := len(calls) == 1
		mu.Unlock()
		if first {
			<-release
		}
		return nil
	})
	for i := range 4 {
		if err := g.Add(i); err != nil {
			t.Fatal(err)
		}
	}
	close(release)
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	var all []int
	for _, c := range calls {
		all = append(all, c...)
	}
	if !slices.Equal(all, []int{0, 1, 2, 3}) || len(calls) > 2 {
		t.Errorf("groups %v: want 0 first, then 1, 2, 3 together (or with it)", calls)
	}

	boom := errors.New("boom")
	failing := work.NewGroup(context.Background(), 1, 0, func(context.Context, []int) error { return boom })
	_ = failing.Add(1)
	if err := failing.Wait(); !errors.Is(err, boom) {
		t.Errorf("Wait = %v, want boom", err)
	}
	if err := failing.Add(2); !errors.Is(err, boom) {
		t.Errorf("Add after a failure = %v, want boom", err)
	}
}

// failingClaims is a store whose claims fail after the first.
type failingClaims struct {
	*memStore
	calls atomic.Int32
}

func (s *failingClaims) Claim(ctx context.Context, keys, fps []string, worker string, now, until time.Time) (map[string]bool, error) {
	if s.calls.Add(1) > 1 {
		return nil, errors.New("store gone")
	}
	return s.memStore.Claim(ctx, keys, fps, worker, now, until)
}

// TestRunReportsAFailedClaim: a claim that fails stops the run with its
// error, not the cancellation of the work under way.
func TestRunReportsAFailedClaim(t *testing.T) {
	s := &failingClaims{memStore: newMemStore()}
	opts := work.Options{Concurrency: 2, Claim: 2, Leases: work.NewLeases(s, "w", time.Second, time.Now)}
	err := work.Run(context.Background(), opts, units(10), func(ctx context.Context, _ []unit) error {
		<-ctx.Done()
		return ctx.Err()
	})
	if err == nil || err.Error() != "store gone" {
		t.Errorf("run = %v, want the claim's error", err)
	}
}

// TestGroupLingers: a lingering group stores its items together once it is
// full, or at once when Wait is called; it never waits out the linger then.
func TestGroupLingers(t *testing.T) {
	stored := make(chan []int, 4)
	g := work.NewGroup(context.Background(), 2, time.Hour, func(_ context.Context, items []int) error {
		stored <- slices.Clone(items)
		return nil
	})
	for i := range 2 {
		if err := g.Add(i); err != nil {
			t.Fatal(err)
		}
	}
	if got := <-stored; !slices.Equal(got, []int{0, 1}) {
		t.Errorf("full group stored %v, want [0 1]", got)
	}
	if err := g.Add(2); err != nil {
		t.Fatal(err)
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	if got := <-stored; !slices.Equal(got, []int{2}) {
		t.Errorf("flushed group stored %v, want [2]", got)
	}
}

// TestRunPreparesClaimedUnitsAhead: Ahead is given every unit this worker
// claims — and no unit another worker holds — in groups of Claim, before
// Run returns, with or without leases.
func TestRunPreparesClaimedUnitsAhead(t *testing.T) {
	for _, tc := range []struct {
		name   string
		leases bool
		held   []string // held by another worker for the whole run
	}{
		{name: "without leases"},
		{name: "with leases", leases: true},
		{name: "others hold some", leases: true, held: []string{"u002", "u011", "u012"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newMemStore()
			if len(tc.held) > 0 {
				other := work.NewLeases(s, "other", time.Hour, time.Now)
				if _, err := other.Take(context.Background(), tc.held, make([]string, len(tc.held))); err != nil {
					t.Fatal(err)
				}
			}
			var mu sync.Mutex
			var ahead, did []string
			var groups []int
			opts := work.Options{Concurrency: 2, Claim: 5, Ahead: func(_ context.Context, us []work.Unit) {
				mu.Lock()
				defer mu.Unlock()
				groups = append(groups, len(us))
				for _, u := range us {
					ahead = append(ahead, u.(unit).key)
				}
			}}
			if tc.leases {
				opts.Leases = work.NewLeases(s, "w", time.Hour, time.Now)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				// The other worker's units are stored after a while, so
				// that the run ends.
				time.Sleep(20 * time.Millisecond)
				for _, k := range tc.held {
					s.store(k, "fp")
				}
			}()
			err := work.Run(ctx, opts, units(20), func(_ context.Context, batch []unit) error {
				mu.Lock()
				defer mu.Unlock()
				for _, u := range batch {
					did = append(did, u.key)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(ahead)
			slices.Sort(did)
			if !slices.Equal(ahead, did) || len(did) != 20-len(tc.held) {
				t.Errorf("prepared %v, did %v; want the same %d units", ahead, did, 20-len(tc.held))
			}
			for _, n := range groups {
				if n > 5 {
					t.Errorf("a group of %d prepared, want at most Claim (5)", n)
				}
			}
		})
	}
}
