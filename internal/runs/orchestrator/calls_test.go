package orchestrator

import (
	"errors"
	"fmt"
	"testing"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
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

// TestBaselineOutcome: a solver's baseline fails when every call failed
// (CallsFailedError) or, short of that, when none of its problems is
// gradeable and none was stored before (NothingGradeableError, with the
// reasons); some gradeable, or some stored before, is no error.
func TestBaselineOutcome(t *testing.T) {
	tally := func(reasons ...string) *CallFailures {
		f := &CallFailures{}
		for _, r := range reasons {
			f.Add(r)
		}
		return f
	}
	noUsage := "the provider reported no output tokens"
	tests := []struct {
		name      string
		solved    int32
		gradeable int32
		skipped   int
		failures  *CallFailures
		reasons   *CallFailures
		want      string // the error, "" for none
	}{
		{"all gradeable", 3, 3, 0, tally(), tally(), ""},
		{"none gradeable", 3, 0, 0, tally(), tally(noUsage, noUsage, "grading failed: x"),
			"none of the 3 problems of m/extended solved is gradeable: 2× the provider reported no output tokens; 1× grading failed: x"},
		{"none gradeable, some calls failed", 2, 0, 0, tally("HTTP 500"), tally(noUsage, "model call failed: HTTP 500"),
			"none of the 2 problems of m/extended solved is gradeable: 1× model call failed: HTTP 500; 1× the provider reported no output tokens"},
		{"every call failed", 2, 0, 0, tally("HTTP 500", "HTTP 500"), tally("model call failed: HTTP 500", "model call failed: HTTP 500"),
			"all 2 model calls of m/extended failed: 2× HTTP 500"},
		{"some gradeable", 3, 1, 0, tally(), tally(noUsage, noUsage), ""},
		{"none gradeable, others stored before", 2, 0, 28, tally(), tally(noUsage, noUsage), ""},
		{"nothing solved", 0, 0, 30, tally(), tally(), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := BaselineSummary{Solver: Solver{Model: "m", Mode: "extended"}, Skipped: tc.skipped,
				Summary:  &triagev1.BaselineSummary{Solved: tc.solved, Gradeable: tc.gradeable, NotGradeable: tc.solved - tc.gradeable},
				Failures: tc.failures, Ungradeable: tc.reasons}
			_, err := s.Outcome("the same command")
			if got := fmt.Sprint(err); (err == nil) != (tc.want == "") || (err != nil && got != tc.want) {
				t.Errorf("Outcome error %v, want %q", err, tc.want)
			}
		})
	}
}
