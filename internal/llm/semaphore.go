package llm

import "context"

// semaphore bounds how many requests a Client has in flight.
type semaphore chan struct{}

// acquire takes a slot, or fails with ctx's error when ctx ends first.
func (s semaphore) acquire(ctx context.Context) error {
	select {
	case s <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// release gives back a slot taken by acquire.
func (s semaphore) release() { <-s }
