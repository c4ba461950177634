package work

import (
	"context"
	"sync"
	"time"
)

// Group stores items in groups, in the background (group commit): Add
// hands an item over and returns at once, and one goroutine stores all
// the items handed over since its last call in one call of the store
// function, while the work goes on. Before a call it lets the group fill
// for up to a linger, unless limit items wait already or Wait was called:
// units that end apart thus still share writes, and the write is off the
// path of each unit. Wait waits until every item is stored.
type Group[T any] struct {
	ctx    context.Context
	store  func(context.Context, []T) error
	limit  int
	linger time.Duration
	// full wakes a lingering store: limit items wait, or Wait was called.
	full chan struct{}

	mu      sync.Mutex
	room    *sync.Cond // signalled when the queue shrinks or storing stops
	queue   []T
	running bool // the storing goroutine runs
	flush   bool // Wait was called: store at once
	err     error
	wg      sync.WaitGroup
}

// NewGroup returns a group whose items store stores, with ctx; Add waits
// while limit items (at least 1) wait to be stored, and a group waits up
// to linger to fill (0: none).
func NewGroup[T any](ctx context.Context, limit int, linger time.Duration, store func(context.Context, []T) error) *Group[T] {
	g := &Group[T]{ctx: ctx, store: store, limit: max(limit, 1), linger: linger, full: make(chan struct{}, 1)}
	g.room = sync.NewCond(&g.mu)
	return g
}

// wake ends a lingering store's wait, if one waits.
func (g *Group[T]) wake() {
	select {
	case g.full <- struct{}{}:
	default:
	}
}

// Add hands item over to be stored. It returns the error that stopped
// storing, if one did (item is then dropped).
func (g *Group[T]) Add(item T) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	for g.err == nil && len(g.queue) >= g.limit {
		g.room.Wait()
	}
	if g.err != nil {
		return g.err
	}
	g.queue = append(g.queue, item)
	if !g.running {
		g.running = true
		g.wg.Go(g.drain)
	}
	if len(g.queue) >= g.limit {
		g.wake()
	}
	return nil
}

// fill waits up to the linger for the group to fill, unless it is empty
// (the storing goroutine then ends), full or being flushed.
func (g *Group[T]) fill() {
	g.mu.Lock()
	wait := g.linger > 0 && !g.flush && len(g.queue) > 0 && len(g.queue) < g.limit
	g.mu.Unlock()
	if !wait {
		return
	}
	t := time.NewTimer(g.linger)
	defer t.Stop()
	select {
	case <-g.full:
	case <-t.C:
	}
}

// drain stores what is queued, group after group, until nothing is, or
// storing failed.
func (g *Group[T]) drain() {
	for {
		g.fill()
		g.mu.Lock()
		batch := g.queue
		g.queue = nil
		if len(batch) == 0 || g.err != nil {
			g.running = false
			g.mu.Unlock()
			return
		}
		g.room.Broadcast()
		g.mu.Unlock()
		if err := g.store(g.ctx, batch); err != nil {
			g.mu.Lock()
			g.err = err
			g.room.Broadcast()
			g.mu.Unlock()
		}
	}
}

// Wait waits until every item handed over is stored, and returns the
// error that stopped storing, if one did. Call it once no Add is under way.
func (g *Group[T]) Wait() error {
	g.mu.Lock()
	g.flush = true
	g.mu.Unlock()
	g.wake()
	g.wg.Wait()
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.err
}
