package execution

import (
	"errors"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/pool"
)

// errMismatch reports a concurrent run whose result differs.
var errMismatch = errors.New("concurrent result differs")

// mustPool builds a Pool or fails the test.
func mustPool(tb testing.TB, items ...pool.Item) *Pool {
	tb.Helper()
	p, err := NewPool(items)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// item returns a pool item with unit value.
func item(id string, cost int64, correct bool) pool.Item {
	return pool.Item{ID: id, Cost: cost, Value: 1, Correct: correct}
}

// outcomes lists a trace's outcomes.
func outcomes(tr []TraceEntry) []Outcome {
	out := make([]Outcome, len(tr))
	for k, e := range tr {
		out[k] = e.Outcome
	}
	return out
}
