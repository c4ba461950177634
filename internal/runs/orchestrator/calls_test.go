package orchestrator

import (
	"errors"
	"testing"
)

func TestCallFailures(t *testing.T) {
	var none *CallFailures
	if w, err := none.Outcome("model calls", 3, "x"); w != "" || err != nil || none.Count() != 0 {
		t.Errorf("a nil tally: %q, %v", w, err)
	}
	f := &CallFailures{}
	if w, err := f.Outcome("model calls", 3, "x"); w != "" || err != nil {
		t.Errorf("no failure: %q, %v", w, err)
	}
	for _, r := range []string{"b", "a", "c", "a", "d", "c", "a", "e"} {
		f.Add(r)
	}
	if got, want := f.Reasons(), "3× a; 2× c; 1× b; and 2 other reasons"; got != want {
		t.Errorf("Reasons = %q, want %q (most frequent first, ties by text)", got, want)
	}
	w, err := f.Outcome("planner calls", 10, "the same command")
	if want := "8 of 10 planner calls failed (3× a; 2× c; 1× b; and 2 other reasons); the same command tries them again"; w != want || err != nil {
		t.Errorf("some failed: %q, %v; want %q", w, err, want)
	}
	w, err = f.Outcome("planner calls", 8, "the same command")
	var all *CallsFailedError
	if w != "" || !errors.As(err, &all) || all.Calls != 8 || err.Error() != "all 8 planner calls failed: 3× a; 2× c; 1× b; and 2 other reasons" {
		t.Errorf("all failed: %q, %v", w, err)
	}
}
