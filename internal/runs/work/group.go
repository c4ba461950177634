package work

import (
	"context"
	"sync"
)

// Group stores items in groups, in the background (group commit): Add
// hands an item over and returns at once, and one goroutine stores all
// the items handed over since its last call in one call of the store
// function, while the work goes on. Units thus share writes, and the
// write is off the path of each unit. Wait waits until every item is
// stored.
type Group[T any] struct {
	ctx   context.Context
	store func(context.Context, []T) error
	limit int

	mu      sync.Mutex
	room    *sync.Cond // signalled when the queue shrinks or storing stops
	queue   []T
	running bool // the storing goroutine runs
	err     error
	wg      sync.WaitGroup
}

// NewGroup returns a group whose items store stores, with ctx; Add waits
// while limit items (at least 1) wait to be stored.
func NewGroup[T any](ctx context.Context, limit int, store func(context.Context, []T) error) *Group[T] {
	g := &Group[T]{ctx: ctx, store: store, limit: max(limit, 1)}
	g.room = sync.NewCond(&g.mu)
	return g
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
	return nil
}

// drain stores what is queued, group after group, until nothing is, or
// storing failed.
func (g *Group[T]) drain() {
	for {
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
	g.wg.Wait()
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.err
}
