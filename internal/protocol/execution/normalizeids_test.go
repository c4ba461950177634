package execution

import (
	"reflect"
	"testing"
)

// TestNormalizeIDsAgrees checks that NormalizeIDs over a Pool's lookup is
// Normalize.
func TestNormalizeIDsAgrees(t *testing.T) {
	p, raw, _ := benchPool(t)
	raw = append(raw, Step{"p3", -1}, Step{"", 5}, Step{"p30", 0}, Step{"P1", 9})
	got := NormalizeIDs(p.Len(), p.Lookup, raw)
	want := Normalize(p, raw)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("NormalizeIDs = %+v\nNormalize = %+v", got, want)
	}
}

// TestNormalizeIDsLookup covers lookups that are not a Pool's: indices out of
// range are unknown, two ids with one index are one item, a nil lookup finds
// nothing.
func TestNormalizeIDsLookup(t *testing.T) {
	lookup := func(id string) (int, bool) {
		switch id {
		case "a", "A":
			return 0, true
		case "b":
			return 1, true
		case "neg":
			return -1, true
		case "big":
			return 2, true
		}
		return 0, false
	}
	raw := []Step{{"A", 5}, {"big", 1}, {"neg", 1}, {"a", 7}, {"b", 2}, {"zz", 1}}
	got := NormalizeIDs(2, lookup, raw)
	steps := []PlannedStep{{0, "A", 5}, {1, "b", 2}}
	log := []Drop{{1, "big", 1, DropUnknownID}, {2, "neg", 1, DropUnknownID}, {3, "a", 7, DropDuplicate}, {5, "zz", 1, DropUnknownID}}
	if !reflect.DeepEqual(got.Steps, steps) || !reflect.DeepEqual(got.Log, log) || got.PlannedTokens != 7 {
		t.Fatalf("NormalizeIDs = %+v", got)
	}
	none := NormalizeIDs(3, nil, []Step{{"a", 1}})
	if len(none.Steps) != 0 || len(none.Log) != 1 || none.Log[0].Reason != DropUnknownID {
		t.Fatalf("nil lookup: %+v", none)
	}
	if neg := NormalizeIDs(-4, lookup, []Step{{"a", 1}}); len(neg.Steps) != 0 {
		t.Fatalf("negative n keeps %+v", neg.Steps)
	}
}
