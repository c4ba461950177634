package execution

import (
	"encoding/json"
	"testing"
)

func TestOutcomeText(t *testing.T) {
	for o, s := range map[Outcome]string{Scored: "scored", Truncated: "truncated", Stopped: "stopped", NotReached: "not_reached"} {
		if o.String() != s {
			t.Errorf("%d.String() = %q, want %q", o, o.String(), s)
		}
		b, err := json.Marshal(o)
		if err != nil || string(b) != `"`+s+`"` {
			t.Errorf("json.Marshal(%v) = %s, %v", o, b, err)
		}
		var back Outcome
		if err := json.Unmarshal(b, &back); err != nil || back != o {
			t.Errorf("round trip of %v = %v, %v", o, back, err)
		}
	}
	for _, o := range []Outcome{0, NotReached + 1} {
		if _, err := o.MarshalText(); err == nil {
			t.Errorf("MarshalText(%d) succeeded", o)
		}
	}
	if Outcome(0).String() != "Outcome(0)" {
		t.Errorf("Outcome(0).String() = %q", Outcome(0).String())
	}
	var o Outcome
	if err := o.UnmarshalText([]byte("done")); err == nil {
		t.Error("UnmarshalText accepted an unknown outcome")
	}
}

func TestDropReasonText(t *testing.T) {
	for r, s := range map[DropReason]string{DropUnknownID: "unknown_id", DropDuplicate: "duplicate", DropNegative: "negative", DropZero: "zero"} {
		if r.String() != s {
			t.Errorf("%d.String() = %q, want %q", r, r.String(), s)
		}
		b, err := json.Marshal(r)
		if err != nil || string(b) != `"`+s+`"` {
			t.Errorf("json.Marshal(%v) = %s, %v", r, b, err)
		}
		var back DropReason
		if err := json.Unmarshal(b, &back); err != nil || back != r {
			t.Errorf("round trip of %v = %v, %v", r, back, err)
		}
	}
	for _, r := range []DropReason{0, DropZero + 1} {
		if _, err := r.MarshalText(); err == nil {
			t.Errorf("MarshalText(%d) succeeded", r)
		}
	}
	if DropReason(9).String() != "DropReason(9)" {
		t.Errorf("DropReason(9).String() = %q", DropReason(9).String())
	}
	var r DropReason
	if err := r.UnmarshalText([]byte("gone")); err == nil {
		t.Error("UnmarshalText accepted an unknown reason")
	}
}
