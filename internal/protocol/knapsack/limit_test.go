package knapsack

import (
	"context"
	"errors"
	"slices"
	"testing"
)

func TestSolveWithinStateBudget(t *testing.T) {
	ctx := context.Background()
	// Values strongly correlated with costs: the bound prunes little.
	hard, hardBudget := genInstance(newRand(4), 300, 1, 4000, 1, nil, 0.5)
	for i := range hard {
		hard[i].Value = float64(hard[i].Cost + 1000)
	}
	easy, easyBudget := genInstance(newRand(2), 300, 1, 4000, 1, unitInterval, 0.5)
	uniform, uniformBudget := genInstance(newRand(1), 5000, 1, 1000, 0.7, nil, 0.5)

	want, err := Solve(ctx, hard, hardBudget)
	if err != nil {
		t.Fatal(err)
	}
	unbounded := NewStateBudget(1 << 40)
	if got, err := SolveWithin(ctx, hard, hardBudget, unbounded); err != nil || !slices.Equal(got.Chosen, want.Chosen) {
		t.Fatalf("SolveWithin with room = %v, %v; want Solve's selection", got.Chosen, err)
	}
	needed := unbounded.Used()
	if needed < 1000 {
		t.Fatalf("the hard instance needed only %d states; pick a harder one", needed)
	}

	tests := []struct {
		name   string
		limit  int64
		wantOK bool
	}{
		{name: "exactly enough", limit: needed, wantOK: true},
		{name: "one short", limit: needed - 1},
		{name: "none", limit: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewStateBudget(tt.limit)
			_, err := SolveWithin(ctx, hard, hardBudget, b)
			var lim *StateLimitError
			switch {
			case tt.wantOK && err != nil:
				t.Fatalf("err = %v, want a solution", err)
			case !tt.wantOK && (!errors.As(err, &lim) || lim.Limit != tt.limit):
				t.Fatalf("err = %v, want a StateLimitError with limit %d", err, tt.limit)
			case b.Used() > tt.limit:
				t.Errorf("used %d states of %d", b.Used(), tt.limit)
			}
		})
	}

	// One budget shared by several calls runs out across them.
	shared := NewStateBudget(needed + needed/2)
	if _, err := SolveWithin(ctx, hard, hardBudget, shared); err != nil {
		t.Fatal(err)
	}
	if _, err := SolveWithin(ctx, hard, hardBudget, shared); !errors.As(err, new(*StateLimitError)) {
		t.Errorf("second call on a shared budget: err = %v, want a StateLimitError", err)
	}

	// Only the general search is charged; an empty budget does not stop the
	// other methods, and an easy general instance needs few states.
	empty := NewStateBudget(0)
	if _, err := SolveWithin(ctx, uniform, uniformBudget, empty); err != nil {
		t.Errorf("uniform values with no states left: %v", err)
	}
	few := NewStateBudget(1 << 20)
	if _, err := SolveWithin(ctx, easy, easyBudget, few); err != nil || few.Used() > 10_000 {
		t.Errorf("random values used %d states (err %v); the bound should prune almost everything", few.Used(), err)
	}
}
