package pool

import (
	"strings"
	"testing"
)

func TestSums(t *testing.T) {
	items := []Item{
		{ID: "a", Cost: 3, Value: 0.1, Correct: true},
		{ID: "b", Cost: 5, Value: 0.2, Correct: false},
		{ID: "c", Cost: 7, Value: 0.7, Correct: true},
	}
	if got := TotalCost(items); got != 15 {
		t.Errorf("TotalCost = %d, want 15", got)
	}
	all := []bool{true, true, true}
	if got, want := TotalGain(items), SumGain(items, all); got != want {
		t.Errorf("TotalGain = %v, SumGain(all) = %v; want bit-identical", got, want)
	}
	if got := SumGain(items, []bool{false, true, false}); got != 0 {
		t.Errorf("SumGain of an incorrect item = %v, want 0", got)
	}
	a, c := items[0].Value, items[2].Value
	if got := SumGain(items, []bool{true, false, true}); got != a+c {
		t.Errorf("SumGain = %v, want %v", got, a+c)
	}
}

func TestIDProblem(t *testing.T) {
	tests := []struct{ id, want string }{
		{"gsm8k-0001", ""},
		{"présent/①", ""},
		{strings.Repeat("a", MaxIDBytes), ""},
		{"", "must not be empty"},
		{strings.Repeat("a", MaxIDBytes+1), "must be at most 256 bytes, got 257"},
		{"a\xffb", "must be valid UTF-8"},
		{"a\x00b", "must not contain control characters, got U+0000 at byte 1"},
		{"p1\nINFO forged", "must not contain control characters, got U+000A at byte 2"},
		{"\x1b[31mred", "must not contain control characters, got U+001B at byte 0"},
		{"a\u0085", "must not contain control characters, got U+0085 at byte 1"},
		{"tab\there", "must not contain control characters, got U+0009 at byte 3"},
	}
	for _, tc := range tests {
		if got := IDProblem(tc.id); got != tc.want {
			t.Errorf("IDProblem(%q) = %q, want %q", tc.id, got, tc.want)
		}
	}
}
