package orchestrator

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"os"
	"slices"
	"time"

	"github.com/triage-eval/triage/internal/store/runstore"
)

// DefaultLease is how long a worker holds a unit without renewing it: a
// dead worker's units wait this long before another worker takes them.
const DefaultLease = time.Minute

// Leases is one worker's side of a shared run: its identity and how it
// claims and renews units (cells, baseline problems, re-solves) in the run
// store.
type Leases struct {
	store  runstore.Store
	worker string
	lease  time.Duration
	now    func() time.Time
}

// NewLeases returns the leases of worker (a fresh identity when empty)
// with the given lease (DefaultLease when 0) on store.
func NewLeases(store runstore.Store, worker string, lease time.Duration, now func() time.Time) *Leases {
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

// Take claims key. When taken, the lease is renewed in the background
// until done is called (done releases nothing: storing a cell releases it,
// and any other unit must be released with Release).
func (l *Leases) Take(ctx context.Context, key string) (done func(), taken bool, err error) {
	now := l.now()
	taken, err = l.store.Claim(ctx, key, l.worker, now, now.Add(l.lease))
	if err != nil || !taken {
		return func() {}, taken, err
	}
	return l.renew(ctx, key), true, nil
}

// renew renews worker's lease on key in the background until the returned
// function is called.
func (l *Leases) renew(ctx context.Context, key string) func() {
	stop := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(l.lease / 3)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				// A lost lease is not an error: the unit is stored once
				// whoever finishes it first (runstore.Store.SaveCell).
				_, _ = l.store.Renew(context.WithoutCancel(ctx), key, l.worker, l.now().Add(l.lease))
			}
		}
	}()
	return func() { close(stop); <-stopped }
}

// TakeCells is Take for cells, in one round trip: it claims each of keys
// that is not stored fresh with the fingerprint at the same index (see
// runstore.Store.ClaimCells) and returns, at each index, the function that stops
// renewing a claim taken, or nil where another worker holds the cell or
// has stored it.
func (l *Leases) TakeCells(ctx context.Context, keys, fingerprints []string) ([]func(), error) {
	now := l.now()
	taken, err := l.store.ClaimCells(ctx, keys, fingerprints, l.worker, now, now.Add(l.lease))
	if err != nil {
		return nil, err
	}
	dones := make([]func(), len(keys))
	for i, k := range keys {
		if taken[k] {
			dones[i] = l.renew(ctx, k)
		}
	}
	return dones, nil
}

// Release gives key up.
func (l *Leases) Release(ctx context.Context, key string) error {
	return l.store.Release(context.WithoutCancel(ctx), key, l.worker)
}

// Poll is the longest a worker waits before looking again at units other
// workers hold: short next to a unit's work, so that the last units of a
// run are noticed soon after they are stored (the look costs two queries,
// and only units whose lease ended are claimed again).
func (l *Leases) Poll() time.Duration {
	return min(max(l.lease/100, 50*time.Millisecond), 250*time.Millisecond)
}

// PollAfter is how long a worker waits before its look number round (0 for
// the first) at units other workers hold: an eighth of Poll at first,
// doubling up to Poll. At the end of a run the workers' last units end
// within moments of each other, so the first look usually finds them
// stored; a fixed Poll would add its whole length to every shared run.
func (l *Leases) PollAfter(round int) time.Duration {
	return l.Poll() >> max(0, 3-round)
}

// Pause is one worker's wait between looks at units other workers hold,
// backing off from PollAfter(0) to Poll while the looks find nothing to do.
type Pause struct {
	leases *Leases
	round  int
}

// NewPause returns a pause whose first wait is PollAfter(0).
func (l *Leases) NewPause() *Pause { return &Pause{leases: l} }

// Wait waits PollAfter of the looks since the worker last computed a unit,
// or until ctx ends. computed says that it did since the previous look,
// which makes this wait short again.
func (p *Pause) Wait(ctx context.Context, computed bool) error {
	if computed {
		p.round = 0
	}
	t := time.NewTimer(p.leases.PollAfter(p.round))
	defer t.Stop()
	p.round++
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Claimable keeps of keys those nobody holds or whose holder's lease has
// ended: the units worth trying to claim again.
func (l *Leases) Claimable(ctx context.Context, keys []string) (map[string]bool, error) {
	holders, err := l.store.Holders(ctx)
	if err != nil {
		return nil, err
	}
	now := l.now()
	out := map[string]bool{}
	for _, k := range keys {
		if until, held := holders[k]; !held || until.Before(now) {
			out[k] = true
		}
	}
	return out, nil
}

// Rotate returns xs starting at a place that depends on the worker, so
// that workers going through the same units start apart and rarely reach
// for the same one.
func Rotate[T any](l *Leases, xs []T) []T {
	if len(xs) == 0 {
		return xs
	}
	h := fnv.New32a()
	h.Write([]byte(l.worker))
	k := int(h.Sum32() % uint32(len(xs)))
	return append(slices.Clone(xs[k:]), xs[:k]...)
}

// Worker is this worker's name.
func (l *Leases) Worker() string { return l.worker }
