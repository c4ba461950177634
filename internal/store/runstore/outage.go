package runstore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/triage-eval/triage/internal/store/sqldb"
)

// DefaultOutage is how long a run store rides out an outage unless
// told otherwise (Outage.Wait): long enough for a PostgreSQL restart or
// fail-over, short enough that a run whose store is gone says so soon.
const DefaultOutage = 2 * time.Minute

// Outage says how a Store rides out a store that stops answering. An
// operation that fails for a reason that may pass (sqldb.Transient: a
// connection refused, reset or cut, the server restarting, SQLite locked)
// is done again, from its start: on PostgreSQL once at once (a pooled
// connection the server closed fails once), then after a pause that doubles from 100 ms
// to 5 s, until it succeeds or Wait has passed since the store stopped
// answering; then it fails with a *UnreachableError. Any other error
// (a constraint violated, a schema newer than this binary) fails at once,
// and the retries end when the operation's context does.
type Outage struct {
	// Wait is how long operations keep trying once the store stopped
	// answering; 0 does not retry.
	Wait time.Duration
	// Warn, when set, is told when the store stops answering and when it
	// answers again, once per outage however many operations wait.
	Warn func(msg string)
}

// outageState is what a Store knows of the outage in progress. An
// outage starts when an operation fails transiently, and ends when one
// that was retrying succeeds, or when one succeeds while none is retrying
// (a lucky connection that still worked as the store went away does not
// end it).
type outageState struct {
	Outage
	now   func() time.Time
	sleep func(context.Context, time.Duration) error

	mu       sync.Mutex
	since    time.Time // zero: the store answers
	retrying int       // operations retrying now
}

// RideOutages implements Store.
func (s *sqlStore) RideOutages(o Outage) {
	s.outage.mu.Lock()
	defer s.outage.mu.Unlock()
	s.outage.Outage = o
}

// UnreachableError is the error of a run store operation given up
// after Outage.Wait: the store did not answer. Nothing stored before is
// lost, so the same command, run again once the store answers, resumes
// where this one stopped.
type UnreachableError struct {
	// Location is the store's (its password masked).
	Location string
	// Doing is the operation given up, e.g. "saving a cell".
	Doing string
	// For is how long the store had not answered.
	For time.Duration
	// Err is the last error of the operation.
	Err error
}

// Error says what failed, why, and how to go on.
func (e *UnreachableError) Error() string {
	return fmt.Sprintf("run store %s unreachable for %v while %s (last error: %v); nothing already stored is lost: run the same command again once the store answers, and it resumes where this one stopped",
		e.Location, roundDuration(e.For), e.Doing, e.Err)
}

// Unwrap returns the last error.
func (e *UnreachableError) Unwrap() error { return e.Err }

// retry does op, and again while it fails transiently, as s.outage says,
// or at once while PostgreSQL aborts it to break a deadlock (againOnConflict).
// doing names the operation for messages ("saving a cell"). op must be
// safe to do again from its start: each is one statement, one transaction
// or (claiming cells on PostgreSQL) two statements that each are, and every
// write is an upsert or a delete.
func retry[T any](ctx context.Context, s *sqlStore, doing string, op func() (T, error)) (T, error) {
	o := &s.outage
	op = againOnConflict(op)
	v, err := op()
	if !done(err) && s.db.Dialect == sqldb.Postgres {
		// Once more at once: a pooled connection the server closed while it
		// was idle fails its next statement, and the pool then opens a
		// fresh one. That is no outage. (SQLite has already waited out its
		// busy timeout.)
		v, err = op()
	}
	if done(err) {
		o.answered(false)
		return v, err
	}
	o.mu.Lock()
	o.retrying++
	o.mu.Unlock()
	pause := 100 * time.Millisecond
	for {
		since, left, ok := o.failed(s.db.Location, doing, err)
		if !ok {
			o.gaveUp()
			return v, &UnreachableError{Location: s.db.Location, Doing: doing, For: o.now().Sub(since), Err: err}
		}
		if serr := o.sleep(ctx, min(pause, left)); serr != nil {
			o.gaveUp()
			return v, serr
		}
		pause = min(2*pause, 5*time.Second)
		if v, err = op(); done(err) {
			o.answered(true)
			return v, err
		}
	}
}

// conflictAttempts bounds how often an operation PostgreSQL aborts to
// break a deadlock is done again at once: the other side of the deadlock
// goes on, so the second attempt nearly always succeeds.
const conflictAttempts = 5

// againOnConflict returns op done again at once, up to conflictAttempts
// times in all, while PostgreSQL aborts it to break a conflict with
// another worker's statement (sqldb.Conflict). Workers of a shared run
// lock claims in different orders — a claim in its units' order, a save
// or a release in the table's — and a deadlock between two of them would
// otherwise end a run whose every statement is safe to repeat.
func againOnConflict[T any](op func() (T, error)) func() (T, error) {
	return func() (T, error) {
		v, err := op()
		for range conflictAttempts - 1 {
			if !sqldb.Conflict(err) {
				break
			}
			v, err = op()
		}
		return v, err
	}
}

// done reports whether an operation's err is final: nil, an outage already
// given up (by an operation it called), or not transient.
func done(err error) bool {
	var given *UnreachableError
	return err == nil || errors.As(err, &given) || !sqldb.Transient(err)
}

// retryErr is retry for an operation with no result.
func retryErr(ctx context.Context, s *sqlStore, doing string, op func() error) error {
	_, err := retry(ctx, s, doing, func() (struct{}, error) { return struct{}{}, op() })
	return err
}

// failed records that an operation failed transiently: the outage starts
// now unless it already has (then Warn is told). It returns when the
// outage started, how much of Wait is left, and whether any is.
func (o *outageState) failed(location, doing string, err error) (since time.Time, left time.Duration, ok bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	now := o.now()
	if o.since.IsZero() {
		o.since = now
		if o.Warn != nil && o.Wait > 0 {
			o.Warn(fmt.Sprintf("run store %s is not answering (%v, while %s); trying again for up to %v", location, err, doing, o.Wait))
		}
	}
	left = o.since.Add(o.Wait).Sub(now)
	return o.since, left, left > 0
}

// answered records that an operation is over, and whether it was
// retrying. Unless it gave up, it reached the store (or the store answered
// about the statement): the outage is over, if none is still retrying or
// this one was.
func (o *outageState) answered(wasRetrying bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if wasRetrying {
		o.retrying--
	}
	if o.since.IsZero() || !wasRetrying && o.retrying > 0 {
		return
	}
	if o.Warn != nil && o.Wait > 0 {
		o.Warn(fmt.Sprintf("run store answers again after %v", roundDuration(o.now().Sub(o.since))))
	}
	o.since = time.Time{}
}

// gaveUp records that a retrying operation stopped without an answer.
func (o *outageState) gaveUp() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.retrying--
}

// retriesEndKey is the context key of the channel that ends an
// operation's retries when its context cannot (CompleteEvenIfStopping).
type retriesEndKey struct{}

// CompleteEvenIfStopping returns a context for a write that must complete
// even when ctx ends (a cell's outcome, computed and paid for, is stored
// while the run stops), but whose retries through an outage end with ctx:
// a run told to stop does not wait out the store.
func CompleteEvenIfStopping(ctx context.Context) context.Context {
	return context.WithValue(context.WithoutCancel(ctx), retriesEndKey{}, ctx.Done())
}

// sleepCtx waits d, or until ctx ends or its retries must end.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	end, _ := ctx.Value(retriesEndKey{}).(<-chan struct{})
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-end:
		return context.Canceled
	}
}

// roundDuration rounds d for a message: to the second from 10 s on, to
// the millisecond below.
func roundDuration(d time.Duration) time.Duration {
	if d >= 10*time.Second {
		return d.Round(time.Second)
	}
	return d.Round(time.Millisecond)
}
