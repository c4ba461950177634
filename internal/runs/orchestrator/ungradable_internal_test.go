package orchestrator

import (
	"fmt"
	"strings"
	"testing"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
)

// TestUngradable: a baseline's preflight names the problems whose grading
// data no grader can use — before any model call, where the Executor once
// refused them solver after solver after the endpoints' check calls — the
// first ten by name and the rest by count.
func TestUngradable(t *testing.T) {
	ok := &triagev1.Problem{Id: "p1", Dataset: "d", GradingJson: `{"kind": "math", "answer": "42"}`}
	noKind := &triagev1.Problem{Id: "p2", Dataset: "d", GradingJson: `{"answer": "42"}`}
	badKind := &triagev1.Problem{Id: "p3", Dataset: "d", GradingJson: `{"kind": "essay"}`}
	if got := ungradable([]*triagev1.Problem{ok}); len(got) != 0 {
		t.Errorf("a gradeable problem: %v", got)
	}
	got := ungradable([]*triagev1.Problem{ok, noKind, badKind})
	if len(got) != 2 || !strings.Contains(got[0], "problem d/p2: grading.kind: required") || !strings.Contains(got[1], "problem d/p3: grading.kind: must be") {
		t.Errorf("two ungradable problems: %q", got)
	}
	var many []*triagev1.Problem
	for i := range 13 {
		many = append(many, &triagev1.Problem{Id: fmt.Sprintf("q%02d", i), Dataset: "d", GradingJson: `{}`})
	}
	got = ungradable(many)
	if len(got) != maxUngradableListed+1 || got[len(got)-1] != "and 3 more problems whose grading data no grader can use" {
		t.Errorf("13 ungradable problems: %q", got)
	}
}
