package problems

import (
	"encoding/json"
	"testing"
)

func TestDigest(t *testing.T) {
	base := Problem{ID: "p1", Dataset: "aime", Text: "Find x.", Value: 1, Grading: json.RawMessage(`{"answer":"204","kind":"exact"}`)}
	with := func(edit func(*Problem)) Problem {
		p := base
		edit(&p)
		return p
	}
	for _, tc := range []struct {
		name string
		p    Problem
		same bool
	}{
		{"grading keys reordered", with(func(p *Problem) { p.Grading = json.RawMessage(`{"kind":"exact","answer":"204"}`) }), true},
		{"grading spaced", with(func(p *Problem) { p.Grading = json.RawMessage(`{ "answer" : "204", "kind":"exact" }`) }), true},
		{"value", with(func(p *Problem) { p.Value = 7 }), true},
		{"id and dataset", with(func(p *Problem) { p.ID, p.Dataset = "q", "math" }), true},
		{"text", with(func(p *Problem) { p.Text = "Find y." }), false},
		{"answer", with(func(p *Problem) { p.Grading = json.RawMessage(`{"answer":"205","kind":"exact"}`) }), false},
		{"number written otherwise", with(func(p *Problem) { p.Grading = json.RawMessage(`{"answer":204,"kind":"exact"}`) }), false},
		{"no grading", with(func(p *Problem) { p.Grading = nil }), false},
		{"unsolvable", with(func(p *Problem) { p.Unsolvable = true }), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Digest(tc.p) == Digest(base); got != tc.same {
				t.Errorf("same digest = %v, want %v", got, tc.same)
			}
			if got := Same(tc.p, with(func(p *Problem) { p.ID, p.Dataset, p.Value = tc.p.ID, tc.p.Dataset, tc.p.Value })); got != tc.same {
				t.Errorf("Same = %v, want %v", got, tc.same)
			}
		})
	}
}

// TestDigestIsStable pins one digest: a change to what Digest covers or how
// it writes it makes every stored record stale, and so must come with a new
// digestVersion, never by accident. The value is the SHA-256 of
// {"version":"triage/problem/v1","text":"Find x <= 3 & y.","grading":{"answer":"204","kind":"exact"}}
// as computed outside Go (python3 hashlib).
func TestDigestIsStable(t *testing.T) {
	p := Problem{ID: "p1", Dataset: "aime", Text: "Find x <= 3 & y.", Grading: json.RawMessage(`{"kind":"exact","answer":"204"}`)}
	const want = "fb3c272253eb9c9f6753d9bf7fdae548675541d4b0c964db72eb8b6759369aa1"
	if got := Digest(p); got != want {
		t.Errorf("Digest = %s, want %s", got, want)
	}
}
