package llm

import "context"

// semaphore bounds how many requests a Client has in flight.
type semaphore chan struct{}

// acquire takes a slot, or fails with ctx's error when ctx ends first, or
// with ErrNotSent once drain has closed (WithDrain): a call that did not
// get its slot before the drain is not sent at all.
func (s semaphore) acquire(ctx context.Context, drain <-chan struct{}) error {
	if draining(drain) {
		return ErrNotSent
	}
	select {
	case s <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	case <-drain:
		return ErrNotSent
	}
	if draining(drain) { // both were ready, and select chose the slot
		s.release()
		return ErrNotSent
	}
	return nil
}

// release gives back a slot taken by acquire.
func (s semaphore) release() { <-s }

// draining reports whether drain (WithDrain) has closed; nil never does.
func draining(drain <-chan struct{}) bool {
	select {
	case <-drain:
		return true
	default:
		return false
	}
}
