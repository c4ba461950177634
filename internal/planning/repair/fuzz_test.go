package repair

import (
	"reflect"
	"testing"
)

// oddIDs are pool ids that stress escaping, canonical forms and the
// reasoning-tag stripper.
var oddIDs = []string{`a"b`, `c\d`, "e\nf", "</think>", "<think>", " sp ", "ü", "P1", "p1", "#5", "[id: 7]", "x{y", "1,200"}

// fuzzPool returns a pool of one of several id families.
func fuzzPool(family, n uint8) []string {
	size := 1 + int(n%40)
	switch family % 5 {
	case 0:
		return numbered("p", size, 0)
	case 1:
		return numbered("q", size, 3)
	case 2:
		return numbered("aime-2024-", size, 2)
	case 3:
		return numbered("", size, 0)
	}
	return oddIDs[:1+int(n)%len(oddIDs)]
}

func FuzzRepair(f *testing.F) {
	for i, tc := range repairCases {
		f.Add(tc.raw, uint8(0), uint8(29), int64(5000))
		f.Add(tc.raw, uint8(i), uint8(i*7), int64(i*100))
	}
	f.Add(messyPlan(30), uint8(0), uint8(29), int64(20000))
	f.Add(`{"plan":[{"id":"a\"b","tokens":5},{"id":"</think>","tokens":"1,200"}]}`, uint8(4), uint8(12), int64(-1))
	f.Add("[[[[{'plan':[{id:3,tokens:'~5k'},],},]]", uint8(3), uint8(9), int64(0))
	f.Fuzz(func(t *testing.T, raw string, family, n uint8, budget int64) {
		ids := fuzzPool(family, n)
		m := NewMatcher(ids)
		res := m.Repair(raw, &budget)
		checkResult(t, m, raw, res)
		if again := m.Repair(raw, &budget); !reflect.DeepEqual(res, again) {
			t.Fatalf("not deterministic:\n%+v\n%+v", res, again)
		}
		if res.Status == Unparseable {
			return
		}
		if res.OverBudget != (res.PlannedTokens > budget) && res.PlannedTokens != 1<<63-1 {
			t.Fatalf("OverBudget %v with %d planned, budget %d", res.OverBudget, res.PlannedTokens, budget)
		}
		canon := Render(res.Plan)
		back := m.Repair(canon, &budget)
		if back.Status != OK || len(back.Fixes) != 0 || !reflect.DeepEqual(back.Plan, res.Plan) || back.PlannedTokens != res.PlannedTokens {
			t.Fatalf("not idempotent: %s\n→ %v %v %v", canon, back.Status, back.Fixes, back.Plan)
		}
		for _, d := range res.Dropped {
			if d.Index < 0 || d.Index > len(raw) {
				t.Fatalf("drop %+v out of range", d)
			}
		}
	})
}
