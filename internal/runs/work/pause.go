package work

import (
	"context"
	"time"
)

// pause is one worker's wait between looks at units other workers hold,
// backing off from PollAfter(0) to Poll while the looks find nothing to do.
type pause struct {
	leases *Leases
	round  int
}

// newPause returns a pause whose first wait is PollAfter(0).
func (l *Leases) newPause() *pause { return &pause{leases: l} }

// wait waits PollAfter of the looks since the worker last did a unit, or
// until ctx ends (its error) or stop closes (ErrStopped). did says that it
// did one since the previous look, which makes this wait short again.
func (p *pause) wait(ctx context.Context, stop <-chan struct{}, did bool) error {
	if did {
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
	case <-stop:
		return ErrStopped
	}
}
