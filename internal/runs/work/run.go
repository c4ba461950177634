package work

import (
	"context"
	"errors"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// ErrStopped is what Run returns when Options.Stop closed before every
// unit was done: the units in progress then finished and were stored, the
// others were left for the next run.
var ErrStopped = errors.New("stopped before every unit was done")

// Unit is one piece of resumable work.
type Unit interface {
	// Key names the unit in the Store: its claim and its stored outcome.
	Key() string
	// Fingerprint identifies the unit's inputs: a unit stored with it is
	// fresh, one stored with another is stale and done again.
	Fingerprint() string
}

// Options say how Run does a source's units.
type Options struct {
	// Concurrency is how many calls of the work run at once (1 when 0).
	Concurrency int
	// Claim is how many units one round trip claims (Concurrency × Batch
	// when 0). Run claims the next group while the work goes on.
	Claim int
	// Batch is how many claimed units one call of the work receives (1
	// when 0): the hook of work done in batches, as the baseline's calls.
	Batch int
	// Leases share the units with the other workers of the run through
	// their Store; nil does every unit, claiming none.
	Leases *Leases
	// Progress, when set, counts as done each unit another worker stored
	// fresh while this one waited for it.
	Progress *Progress
	// StoringReleases says that the work, in storing a unit, gives up its
	// claim (as the run store does for cells); otherwise Run releases the
	// claims of a batch once its work returns.
	StoringReleases bool
	// Ahead, when set, is given each group of units this worker claimed
	// (without Leases, each group it offers), in a goroutine of its own,
	// as soon as the group is claimed: while the work of the groups before
	// it goes on, a source prepares what the group's units share (the
	// grid's references), so that their work does not wait for it. It
	// gets only units this worker will do (of the type Run was given),
	// and stores nothing: what fails in it, the work meets and reports.
	// Run returns after it does.
	Ahead func(ctx context.Context, units []Unit)
	// Stop, when it closes, drains the run: no unit starts after it, the
	// calls of work already started finish (their context does not end)
	// and store what they did, claimed units not started are given back,
	// and Run returns ErrStopped. Work that finds, once Stop has closed,
	// that it cannot do its unit after all (its model call was queued and
	// is not sent) returns an error wrapping ErrStopped: the unit is then
	// given back like one not started, and the run goes on draining.
	// Ending ctx instead abandons the work in progress. Nil never stops.
	Stop <-chan struct{}
}

// Stopping reports whether stop (Options.Stop) has closed.
func Stopping(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// Run does units, each once, with opts.Concurrency calls of work at once:
// work does the units it is given (claimed by this worker) and stores
// their outcome. With opts.Leases each unit is claimed first, so that no
// two workers do it; a unit another worker holds is left to it and looked
// at again after a pause, until it is stored fresh or its holder's lease
// ends and this worker takes it over. A unit whose work fails is given
// up. The first error stops the run and is returned; so is ctx's.
func Run[U Unit](ctx context.Context, opts Options, units []U, work func(context.Context, []U) error) error {
	opts.Concurrency = max(opts.Concurrency, 1)
	opts.Batch = max(opts.Batch, 1)
	if opts.Claim <= 0 {
		opts.Claim = opts.Concurrency * opts.Batch
	}
	l := opts.Leases
	if l == nil {
		_, err := pass(ctx, opts, units, work)
		return err
	}
	stop := l.keepAlive(ctx)
	defer stop()
	waiting, err := pass(ctx, opts, units, work)
	opts.Progress.setHeld(len(waiting))
	defer opts.Progress.setHeld(0)
	// The first look is at once: a worker that finishes last finds the
	// units it waits for stored already, and a pause would only add to
	// the run's wall time.
	pause, took := l.newPause(), false
	for look := 0; err == nil && len(waiting) > 0; look++ {
		if Stopping(opts.Stop) {
			return ErrStopped
		}
		if look > 0 {
			if err = pause.wait(ctx, opts.Stop, took); err != nil {
				break
			}
		}
		var retry, held []U
		if retry, waiting, err = claimable(ctx, opts, waiting); err != nil {
			break
		}
		opts.Progress.setHeld(len(waiting)) // not those taken over or stored since
		took = len(retry) > 0
		held, err = pass(ctx, opts, retry, work)
		waiting = append(waiting, held...)
		opts.Progress.setHeld(len(waiting))
	}
	if err != nil {
		return err
	}
	return ctx.Err()
}

// claimable splits the units other workers held into those to offer again
// (retry: nobody holds them now, or their holder's lease ended) and those
// still held; units stored fresh meanwhile are in neither. The claims are
// read before the stored units: a unit whose holder stores it (and so
// gives up its claim) between the two reads is then found stored, not
// free, and is not offered again for nothing.
func claimable[U Unit](ctx context.Context, opts Options, waiting []U) (retry, still []U, err error) {
	l := opts.Leases
	keys := keysOf(waiting)
	free, err := l.free(ctx, keys)
	if err != nil {
		return nil, nil, err
	}
	fresh, err := l.store.Fresh(ctx, keys)
	if err != nil {
		return nil, nil, err
	}
	for _, u := range waiting {
		switch fp, ok := fresh[u.Key()]; {
		case ok && fp == u.Fingerprint():
			if opts.Progress != nil {
				opts.Progress.Done.Add(1)
			}
		case free[u.Key()]:
			retry = append(retry, u)
		default:
			still = append(still, u)
		}
	}
	return retry, still, nil
}

// pass offers every unit once and returns those other workers held or
// stored. Units are claimed a group at a time, one round trip each, the
// next group while the work of the previous one goes on; claimed units
// that were never started (the run stopping) are given back.
func pass[U Unit](ctx context.Context, opts Options, units []U, work func(context.Context, []U) error) ([]U, error) {
	l := opts.Leases
	feedCtx, stopWork := context.WithCancel(ctx)
	defer stopWork()
	g, gctx := errgroup.WithContext(feedCtx)
	jobs := make(chan []U, (opts.Claim-1)/opts.Batch)
	var left atomic.Bool // units left undone because Stop closed
	for range opts.Concurrency {
		g.Go(func() error {
			for batch := range jobs {
				if Stopping(opts.Stop) {
					left.Store(true)
					giveBack(ctx, l, batch)
					continue
				}
				if err := doClaimed(gctx, opts, batch, work); err != nil {
					if errors.Is(err, ErrStopped) && Stopping(opts.Stop) {
						left.Store(true) // not done after all; its claims are given back
						continue
					}
					return err
				}
			}
			return nil
		})
	}
	var (
		waiting []U
		feedErr error
	)
feed:
	for _, part := range groupsFrom(l, units, opts.Claim) {
		if Stopping(opts.Stop) {
			left.Store(true)
			break
		}
		mine := part
		if l != nil {
			taken, err := l.Take(gctx, keysOf(part), fingerprintsOf(part))
			if err != nil {
				if gctx.Err() == nil {
					// The claim failed, not the work: it stops the work.
					feedErr = err
					stopWork()
				}
				break
			}
			mine = nil
			for _, u := range part {
				if taken[u.Key()] {
					mine = append(mine, u)
				} else {
					waiting = append(waiting, u)
				}
			}
		}
		if opts.Ahead != nil && len(mine) > 0 {
			ahead := make([]Unit, len(mine))
			for i, u := range mine {
				ahead[i] = u
			}
			g.Go(func() error {
				opts.Ahead(gctx, ahead)
				return nil
			})
		}
		for b := 0; b < len(mine); b += opts.Batch {
			select {
			case jobs <- mine[b:min(b+opts.Batch, len(mine))]:
			case <-gctx.Done():
				giveBack(ctx, l, mine[b:])
				break feed
			case <-opts.Stop:
				left.Store(true)
				giveBack(ctx, l, mine[b:])
				break feed
			}
		}
	}
	close(jobs)
	err := g.Wait()
	for batch := range jobs { // left when the work failed
		giveBack(ctx, l, batch)
	}
	if feedErr != nil {
		return nil, feedErr
	}
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if left.Load() {
		return nil, ErrStopped
	}
	return waiting, nil
}

// doClaimed does a batch this worker claimed and gives its claims up: a
// failed batch for another attempt, a done one unless storing it did.
func doClaimed[U Unit](ctx context.Context, opts Options, batch []U, work func(context.Context, []U) error) error {
	err := work(ctx, batch)
	switch {
	case opts.Leases == nil:
		return err
	case err != nil:
		giveBack(ctx, opts.Leases, batch)
		return err
	case opts.StoringReleases:
		return nil
	}
	return opts.Leases.Release(ctx, keysOf(batch))
}

// giveBack releases units this worker claimed and will not finish; a claim
// it cannot release (the store gone) ends with its lease.
func giveBack[U Unit](ctx context.Context, l *Leases, units []U) {
	if l != nil {
		_ = l.Release(ctx, keysOf(units))
	}
}

func keysOf[U Unit](units []U) []string {
	out := make([]string, len(units))
	for i, u := range units {
		out[i] = u.Key()
	}
	return out
}

func fingerprintsOf[U Unit](units []U) []string {
	out := make([]string, len(units))
	for i, u := range units {
		out[i] = u.Fingerprint()
	}
	return out
}
