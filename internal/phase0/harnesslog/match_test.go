package harnesslog

import (
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/store/problems"
)

// TestTextMatch: a question matches the problem whose text it equals, else
// the choice problem whose question it is (the text before "A) …"),
// whitespace runs as one space; none or several is refused.
func TestTextMatch(t *testing.T) {
	ps := []problems.Problem{
		{ID: "long", Dataset: "d", Text: "Find the degree of the field extension Q(sqrt(2)) over Q.\n\nA) 0\nB) 2"},
		{ID: "long-twin", Dataset: "d", Text: "Which of these is prime?\n\nA) 4\nB) 5"},
		{ID: "long-twin-2", Dataset: "d", Text: "Which of these is prime?\n\nA) 6\nB) 7"},
		{ID: "short", Dataset: "d", Text: "Is 7 prime?\n\nA) yes\nB) no"},
		{ID: "exact", Dataset: "d", Text: "Is 7 prime?"},
		{ID: "other", Dataset: "e", Text: "Compute 2+2."},
	}
	idx, err := newProblemIndex(ps, "p.jsonl", "d")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		text, want, why string
	}{
		{"Find the degree of the field extension Q(sqrt(2)) over Q.", "long", ""},
		{"  Find the degree of the\tfield extension Q(sqrt(2))\nover Q. ", "long", ""},
		{"Is 7 prime?", "exact", ""}, // equality wins over a prefix
		{"Is 7", "", "no problem"},   // a prefix must end where the options start
		{"Find the degree of the field", "", "no problem"},
		{"Find the degree of the field extension Q(sqrt(2)) over Q. A) 0", "", "no problem"},
		{"Which of these is prime?", "", `matches 2 problems ("long-twin", "long-twin-2"…)`},
		{"Compute 2+2.", "", `no problem of dataset "d"`},
		{"   ", "", "empty question text"},
	}
	for _, tc := range tests {
		s := &Sample{Harness: Inspect, Text: tc.text}
		p, field, why := idx.find(s, Options{Match: MatchText})
		switch {
		case tc.want != "" && (p == nil || p.ID != tc.want):
			t.Errorf("%q: %v, %q; want %s", tc.text, p, why, tc.want)
		case tc.want == "" && (p != nil || field != "input" || !strings.Contains(why, tc.why)):
			t.Errorf("%q: %v, %s: %q; want input: %q", tc.text, p, field, why, tc.why)
		}
	}
}
