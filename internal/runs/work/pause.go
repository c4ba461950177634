package work

import (
	"context"
	"time"
)

// pause is one worker's wait between looks at units other workers hold,
// growing with the time it has waited (PollAfter) while the looks find
// nothing to do.
type pause struct {
	leases *Leases
	// since is when the worker started waiting: its first wait, or the
	// first after it last did a unit. It is read on the clock the pause's
	// timer runs on (time.Now), not the leases' clock: a test's frozen
	// clock would keep every wait at its shortest.
	since time.Time
}

// newPause returns a pause that has not waited yet.
func (l *Leases) newPause() *pause { return &pause{leases: l} }

// wait waits PollAfter of the time waited since the worker last did a
// unit, or until ctx ends (its error) or stop closes (ErrStopped). did
// says that it did one since the previous look, which makes this wait
// short again.
func (p *pause) wait(ctx context.Context, stop <-chan struct{}, did bool) error {
	now := time.Now()
	if did || p.since.IsZero() {
		p.since = now
	}
	t := time.NewTimer(p.leases.PollAfter(now.Sub(p.since)))
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-stop:
		return ErrStopped
	}
}
