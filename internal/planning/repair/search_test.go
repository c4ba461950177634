package repair

import (
	"strings"
	"sync"
	"testing"
)

func TestSearchWorkBound(t *testing.T) {
	text := strings.Repeat("[", 1000) + `{"plan":[]}`
	p := &parser{s: text}
	if f := p.search(workBound(len(text))); f.plans != 1 || f.gaveUp {
		t.Fatalf("with the full bound: %+v", f)
	}
	p = &parser{s: text}
	if f := p.search(2000); f.plans != 0 || !f.gaveUp {
		t.Fatalf("with a small bound: %+v", f)
	}
}

func TestUnparseableReasons(t *testing.T) {
	tests := map[string]string{
		"":                              "empty output",
		"<think>only reasoning</think>": "nothing but reasoning",
		"no json here":                  "no JSON object or array",
		`{"a": 1} [1, 2]`:               "no JSON value is a plan",
		`{"plan": [{"id": "p1", "tok`:   "cut off",
	}
	for raw, want := range tests {
		res := Repair(raw, pool30, nil)
		if res.Status != Unparseable || !strings.Contains(res.Error, want) {
			t.Errorf("Repair(%q) = %v %q, want unparseable with %q", raw, res.Status, res.Error, want)
		}
	}
	huge := strings.Repeat(" ", MaxInput+1)
	if res := Repair(huge, pool30, nil); res.Status != Unparseable || !strings.Contains(res.Error, "at most") {
		t.Errorf("huge input: %v %q", res.Status, res.Error)
	}
}

func TestFixDetails(t *testing.T) {
	raw := `{"plan": [{"id": 3, "tokens": "1,200"}, {"id": "P4", "tokens": 800.5}, {"id": "p3", "tokens": 1}, {"id": "p9", "tokens": -5}]}`
	res := Repair(raw, pool30, nil)
	want := []Fix{
		{FixIDFromNumber, `plan[0].id 3 → "3"`},
		{FixNumberFromString, `plan[0].tokens "1,200" → 1200`},
		{FixIDCanonical, `plan[0].id "3" → "p3"`},
		{FixFloatTruncated, `plan[1].tokens 800.5 → 800`},
		{FixIDCanonical, `plan[1].id "P4" → "p4"`},
		{FixDuplicateID, `plan[2].id "p3" repeats plan[0]; dropped`},
		{FixNegativeToZero, `plan[3].tokens -5 → 0 ("p9"); dropped`},
	}
	if len(res.Fixes) != len(want) {
		t.Fatalf("fixes %v", res.Fixes)
	}
	for i := range want {
		if res.Fixes[i] != want[i] {
			t.Errorf("fix %d = %+v, want %+v", i, res.Fixes[i], want[i])
		}
	}
	long := `{"plan": [{"id": "` + strings.Repeat("é", 40) + `", "tokens": 1}]}`
	res = Repair(long, pool30, nil)
	if d := res.Fixes[0].Detail; !strings.Contains(d, `éé"… is not a pool id`) || len(d) > 150 {
		t.Errorf("long id not cut: %s", d)
	}
}

// TestConcurrent repairs with one Matcher from many goroutines (run with
// -race): the lazily built tables and the parser pool are shared.
func TestConcurrent(t *testing.T) {
	m := NewMatcher(pool30)
	raws := []string{messyPlan(30), cleanPlan(30), `{"plan":[{"id":3,"tokens":5}]}`, "garbage"}
	want := make([]Result, len(raws))
	for i, raw := range raws {
		want[i] = NewMatcher(pool30).Repair(raw, nil)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 8 {
		wg.Go(func() {
			for k := range 20 {
				i := (g + k) % len(raws)
				if got := m.Repair(raws[i], nil); planString(got.Plan) != planString(want[i].Plan) || len(got.Fixes) != len(want[i].Fixes) {
					errs <- raws[i][:min(len(raws[i]), 40)]
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("concurrent result differs for %q", e)
	}
}
