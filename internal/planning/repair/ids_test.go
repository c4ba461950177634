package repair

import "testing"

func TestCanonical(t *testing.T) {
	tests := map[string]string{
		"p3":        "p3",
		"P3":        "p3",
		"  p3\t":    "p3",
		"#p3":       "p3",
		"# 3":       "3",
		"id: p3":    "p3",
		"ID=p3":     "p3",
		"[id: P3]":  "p3",
		"[ p3 ]":    "p3",
		"id:#3":     "3",
		"idea":      "idea",
		"id":        "id",
		"[]":        "",
		"Ünïcode-1": "ünïcode-1",
	}
	for in, want := range tests {
		if got := canonical(in); got != want {
			t.Errorf("canonical(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestResolve(t *testing.T) {
	m := NewMatcher(numbered("p", 30, 0))
	tests := []struct {
		id   string
		want string // pool id, "" for none
		how  match
	}{
		{"p3", "p3", matchExact},
		{"P3", "p3", matchCanonical},
		{"3", "p3", matchCanonical},
		{"003", "p3", matchCanonical},
		{"p003", "p3", matchCanonical},
		{"[id: #3]", "p3", matchCanonical},
		{"p0", "", matchNone},
		{"0", "", matchNone},
		{"31", "", matchNone},
		{"q3", "", matchNone},
		{"p 3", "", matchNone},
		{"p3a", "", matchNone},
		{"", "", matchNone},
		{"  ", "", matchNone},
		{"p", "", matchNone},
	}
	for _, tt := range tests {
		i, how := m.resolve(tt.id)
		got := ""
		if how == matchExact || how == matchCanonical {
			got = m.ids[i]
		}
		if got != tt.want || how != tt.how {
			t.Errorf("resolve(%q) = %q, %d; want %q, %d", tt.id, got, how, tt.want, tt.how)
		}
	}
}

func TestResolveAmbiguous(t *testing.T) {
	m := NewMatcher([]string{"a", "A", "x1", "b"})
	if _, how := m.resolve(" a"); how != matchAmbiguous {
		t.Errorf("resolve(%q) = %d, want ambiguous", " a", how)
	}
	numbered := NewMatcher([]string{"x1", "x01", "x2"})
	for _, id := range []string{"1", "x001", "X001 "} {
		if _, how := numbered.resolve(id); how != matchAmbiguous {
			t.Errorf("resolve(%q) = %d, want ambiguous", id, how)
		}
	}
	if i, how := numbered.resolve("2"); how != matchCanonical || i != 2 {
		t.Errorf("resolve(2) = %d, %d", i, how)
	}
	for _, id := range []string{"a", "A"} {
		if i, how := m.resolve(id); how != matchExact || m.ids[i] != id {
			t.Errorf("resolve(%q) = %d, %d; want exact", id, i, how)
		}
	}
	if m.num != nil {
		t.Errorf("pool with non-numbered ids has a numeric table")
	}
}

func TestMatcherRepeatedAndEmptyPool(t *testing.T) {
	m := NewMatcher([]string{"p1", "p1", "p2"})
	if i, how := m.resolve("p1"); how != matchExact || i != 0 {
		t.Errorf("repeated id resolves to %d, %d", i, how)
	}
	res := m.Repair(`{"plan":[{"id":"p1","tokens":1},{"id":"p1","tokens":2}]}`, nil)
	if planString(res.Plan) != "p1:1" {
		t.Errorf("plan %q", planString(res.Plan))
	}
	empty := NewMatcher(nil)
	res = empty.Repair(`{"plan":[{"id":"p1","tokens":1}]}`, nil)
	if res.Status != Repaired || len(res.Plan) != 0 || fixSet(res.Fixes) != "unknown_id" {
		t.Errorf("empty pool: %+v", res)
	}
}

// TestMatcherResolve: the exported Resolve names the pool id a written id
// resolves to, and nothing for unknown or ambiguous ids.
func TestMatcherResolve(t *testing.T) {
	tests := []struct {
		pool   []string
		id     string
		want   string
		wantOK bool
	}{
		{numbered("p", 30, 0), "p3", "p3", true},
		{numbered("p", 30, 0), "3", "p3", true},
		{numbered("p", 30, 0), "[id: P03]", "p3", true},
		{numbered("p", 30, 0), "p99", "", false},
		{numbered("p", 30, 0), "", "", false},
		{[]string{"a", "A", "b"}, " a", "", false}, // ambiguous
		{[]string{"a", "A", "b"}, "A", "A", true},
		{[]string{"2024-I-14", "1873_A"}, "1873_a", "1873_A", true},
	}
	for _, tt := range tests {
		got, ok := NewMatcher(tt.pool).Resolve(tt.id)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("Resolve(%q) over %v = %q, %v; want %q, %v", tt.id, tt.pool, got, ok, tt.want, tt.wantOK)
		}
	}
}
