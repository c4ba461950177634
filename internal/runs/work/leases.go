package work

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"os"
	"time"
)

// DefaultLease is how long a worker holds a unit without renewing it: a
// dead worker's units wait this long before another worker takes them.
const DefaultLease = time.Minute

// MinLease is the shortest lease a worker may take. A worker renews its
// leases every third of one, a store round trip each; much shorter, a
// renewal late on a busy machine or a slow store lets another worker take
// over a unit still in progress, and the unit is done twice (a 50 ms
// lease did so with three workers).
const MinLease = 5 * time.Second

// CheckLease says why d cannot be a lease (NewLeases), or nil.
func CheckLease(d time.Duration) error {
	if d < MinLease {
		return fmt.Errorf("a lease must be at least %v (renewed every third of it, through the store), got %v", MinLease, d)
	}
	return nil
}

// Leases is one worker's side of a shared run: its identity and how it
// claims, renews and gives up units in a Store.
type Leases struct {
	store  Store
	worker string
	lease  time.Duration
	now    func() time.Time
}

// NewLeases returns the leases of worker (a fresh identity when empty)
// with the given lease (DefaultLease when 0) on store.
func NewLeases(store Store, worker string, lease time.Duration, now func() time.Time) *Leases {
	if worker == "" {
		worker = NewWorkerID()
	}
	if lease <= 0 {
		lease = DefaultLease
	}
	return &Leases{store: store, worker: worker, lease: lease, now: now}
}

// NewWorkerID names a worker process: host, process id and a random part,
// so that two processes never share an identity.
func NewWorkerID() string {
	host, err := os.Hostname()
	if err != nil {
		host = "host"
	}
	var b [4]byte
	rand.Read(b[:])
	return fmt.Sprintf("%s/%d/%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

// Worker is this worker's name.
func (l *Leases) Worker() string { return l.worker }

// Take claims, in one round trip, each of keys that is not stored fresh
// with the fingerprint at the same index (see Store.Claim), and returns
// the keys taken. Run renews them while it works; a claim taken outside
// Run lasts one lease.
func (l *Leases) Take(ctx context.Context, keys, fingerprints []string) (map[string]bool, error) {
	now := l.now()
	return l.store.Claim(ctx, keys, fingerprints, l.worker, now, now.Add(l.lease))
}

// Release gives keys up, even while ctx is being cancelled.
func (l *Leases) Release(ctx context.Context, keys []string) error {
	if len(keys) == 0 {
		return nil
	}
	return l.store.Release(context.WithoutCancel(ctx), l.worker, keys)
}

// keepAlive renews every lease of this worker, in one statement, three
// times a lease until stop is called or ctx ends. A lost lease is not an
// error: a unit is stored once, whoever finishes it first.
func (l *Leases) keepAlive(ctx context.Context) (stop func()) {
	quit, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(l.lease / 3)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				_ = l.store.Renew(context.WithoutCancel(ctx), l.worker, l.now().Add(l.lease))
			}
		}
	}()
	return func() { close(quit); <-stopped }
}

// free keeps of keys those nobody holds or whose holder's lease has
// ended: the units worth trying to claim again.
func (l *Leases) free(ctx context.Context, keys []string) (map[string]bool, error) {
	holders, err := l.store.Holders(ctx)
	if err != nil {
		return nil, err
	}
	now := l.now()
	out := make(map[string]bool, len(keys))
	for _, k := range keys {
		if until, held := holders[k]; !held || until.Before(now) {
			out[k] = true
		}
	}
	return out, nil
}

// Poll is the longest a worker waits before looking again at units other
// workers hold: short next to a unit's work, so that the last units of a
// run are noticed soon after they are stored (the look costs two queries,
// which read the units waited for and the claims, and only units whose
// lease ended are claimed again).
func (l *Leases) Poll() time.Duration {
	return min(max(l.lease/100, 50*time.Millisecond), 250*time.Millisecond)
}

// PollAfter is how long a worker waits before it looks again at units
// other workers hold, when it has waited for them for waited since it
// last did a unit: an eighth of that wait, at least a 32nd of Poll and at
// most Poll. The first look is at once (Run). At the end of a run the
// other workers' last units end within about one unit's time, each stored
// a few milliseconds later: looks that stay short while the wait is short
// see the last of them soon after it is stored (at most an eighth of the
// wait late, or a 32nd of Poll), where a fixed Poll would add its whole
// length to every shared run and a wait doubled at each look as much as
// the wait itself. A look reads the claims (Store.Holders) and the units
// waited for (Store.Fresh), not every stored unit, so looking often costs
// the store little; a long wait looks every Poll.
func (l *Leases) PollAfter(waited time.Duration) time.Duration {
	return min(max(waited/8, l.Poll()/32), l.Poll())
}

// groupsFrom cuts units into groups of claim (the last of them shorter
// when claim does not divide their number), each starting at a multiple of
// claim, and returns them in the order this worker offers them: from a
// group that depends on the worker to the end, then from the start, so
// that workers going through the same units start apart and rarely reach
// for the same one. Workers that meet then reach for the same groups —
// when they go through the same units with the same claim, as the workers
// of a run started together do — each group taken whole by one of them,
// rather than for groups that overlap, each taken in part by both: a
// worker that holds a part group more than the others at the end of a run
// needs a whole round of its slots more. Without leases (l nil) the groups
// start at the first unit.
func groupsFrom[U any](l *Leases, units []U, claim int) [][]U {
	claim = max(claim, 1)
	var groups [][]U
	for start := 0; start < len(units); start += claim {
		groups = append(groups, units[start:min(start+claim, len(units))])
	}
	if l == nil || len(groups) == 0 {
		return groups
	}
	h := fnv.New32a()
	h.Write([]byte(l.worker))
	k := int(h.Sum32() % uint32(len(groups)))
	return append(groups[k:], groups[:k]...)
}
