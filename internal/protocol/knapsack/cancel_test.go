package knapsack

import (
	"context"
	"errors"
	"testing"
	"time"
)

// countdownCtx reports context.Canceled from Err once it has been asked
// more than ok times, so a test can cancel in the middle of a search.
type countdownCtx struct {
	context.Context
	ok int
}

func (c *countdownCtx) Err() error {
	if c.ok <= 0 {
		return context.Canceled
	}
	c.ok--
	return nil
}

func TestSolveCancelled(t *testing.T) {
	uniformItems, uniformBudget := genInstance(newRand(1), 5000, 1, 1000, 0.7, nil, 0.5)
	generalItems, generalBudget := genInstance(newRand(2), 1000, 1, 2000, 1, unitInterval, 0.5)

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel2()

	tests := []struct {
		name string
		ctx  context.Context
		gen  bool
		want error
	}{
		{"uniform, cancelled before", cancelled, false, context.Canceled},
		{"general, cancelled before", cancelled, true, context.Canceled},
		{"general, deadline passed", expired, true, context.DeadlineExceeded},
		{"general, cancelled during the search", &countdownCtx{Context: context.Background(), ok: 3}, true, context.Canceled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			items, budget := uniformItems, uniformBudget
			if tc.gen {
				items, budget = generalItems, generalBudget
			}
			_, err := Solve(tc.ctx, items, budget)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
}
