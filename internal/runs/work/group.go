package work

import (
	"context"
	"sync"
)

// Group stores items in groups (group commit): Store waits until its item
// is stored, and the items handed over while a group is being stored go
// together in the next one, in one call of the store function. Units that
// finish at once thus share one write, and no goroutine waits in the
// background: the caller whose turn it is stores the group.
type Group[T any] struct {
	store func(context.Context, []T) error

	mu    sync.Mutex
	busy  bool // a caller is storing a group
	queue []queued[T]
}

type queued[T any] struct {
	item T
	turn chan turn
}

// turn is what a waiting caller is told: its item's outcome, or that it
// stores the next group.
type turn struct {
	err  error
	lead bool
}

// NewGroup returns a group whose items store stores.
func NewGroup[T any](store func(context.Context, []T) error) *Group[T] {
	return &Group[T]{store: store}
}

// Store stores item with whatever other items are waiting, and returns
// the error of the call that stored them.
func (g *Group[T]) Store(ctx context.Context, item T) error {
	mine := make(chan turn, 1)
	g.mu.Lock()
	g.queue = append(g.queue, queued[T]{item, mine})
	if g.busy {
		g.mu.Unlock()
		if t := <-mine; !t.lead {
			return t.err
		}
		g.mu.Lock()
	}
	g.busy = true
	batch := g.queue
	g.queue = nil
	g.mu.Unlock()

	items := make([]T, len(batch))
	for i, q := range batch {
		items[i] = q.item
	}
	err := g.store(ctx, items)
	for _, q := range batch {
		if q.turn != mine {
			q.turn <- turn{err: err}
		}
	}
	g.mu.Lock()
	if len(g.queue) > 0 {
		g.queue[0].turn <- turn{lead: true}
	} else {
		g.busy = false
	}
	g.mu.Unlock()
	return err
}
