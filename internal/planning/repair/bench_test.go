package repair

import (
	"strconv"
	"strings"
	"testing"
)

// messyPlan returns a planner output in the messy style of reasoning models:
// a ~2 KB think block holding a draft, a sentence, a json fence around a
// plan of n steps with string numbers, floats, integer and upper-case ids,
// trailing commas, a reason field per step, two unknown ids and two
// duplicates, then an explanation.
func messyPlan(n int) string {
	var b strings.Builder
	b.WriteString("<think>\n")
	for b.Len() < 2048 {
		b.WriteString("Let me weigh the problems against the budget. Problem p7 looks like a short counting question; " +
			"p12 needs a long proof [id: p12] so maybe skip it. A draft: {\"plan\": [{\"id\": \"p7\", \"tokens\": 900}]}.\n")
	}
	b.WriteString("</think>\n\nHere is my plan, easiest first:\n\n```json\n{\n  \"plan\": [\n")
	for k := range n {
		i := (k*11)%n + 1
		id := `"p` + strconv.Itoa(i) + `"`
		switch k % 5 {
		case 1:
			id = strconv.Itoa(i)
		case 3:
			id = `"P` + strconv.Itoa(i) + `"`
		}
		tokens := strconv.Itoa(500 + 37*k)
		switch k % 4 {
		case 0:
			tokens = `"1,` + strconv.Itoa(100+k) + `"`
		case 1:
			tokens = `"~` + tokens + ` tokens"`
		case 2:
			tokens += ".5"
		}
		b.WriteString(`    {"id": ` + id + `, "tokens": ` + tokens + `, "reason": "looks tractable",},` + "\n")
		if k == 9 || k == 19 {
			b.WriteString(`    {"id": "p9` + strconv.Itoa(k) + `", "tokens": 100},` + "\n") // unknown
			b.WriteString(`    {"id": "p` + strconv.Itoa(i) + `", "tokens": 50},` + "\n")   // duplicate
		}
	}
	b.WriteString("  ]\n}\n```\n\nThis leaves some headroom in case p3 runs long.")
	return b.String()
}

// cleanPlan returns the canonical JSON of a 30-step plan.
func cleanPlan(n int) string {
	var b strings.Builder
	b.WriteString(`{"plan": [`)
	for k := range n {
		if k > 0 {
			b.WriteString(", ")
		}
		b.WriteString(`{"id": "p` + strconv.Itoa((k*11)%n+1) + `", "tokens": ` + strconv.Itoa(500+37*k) + `}`)
	}
	b.WriteString(`]}`)
	return b.String()
}

func TestBenchInputs(t *testing.T) {
	res := Repair(messyPlan(30), pool30, nil)
	if res.Status != Repaired || len(res.Plan) != 30 || len(res.Dropped) != 4 {
		t.Fatalf("messy: %v, %d steps, %d dropped: %v", res.Status, len(res.Plan), len(res.Dropped), res.Fixes)
	}
	want := "extra_fields float_truncated id_canonical id_from_number duplicate_id number_from_string " +
		"strip_fence strip_prose strip_think trailing_comma unknown_id"
	if got := fixSet(res.Fixes); got != sortedFixes(want) {
		t.Errorf("messy fixes {%s}", got)
	}
	if res := Repair(cleanPlan(30), pool30, nil); res.Status != OK || len(res.Plan) != 30 {
		t.Fatalf("clean: %v, %d steps", res.Status, len(res.Plan))
	}
}

// BenchmarkRepairMessy30 repairs messyPlan(30) against p1…p30, building the
// Matcher in each call as Repair does.
func BenchmarkRepairMessy30(b *testing.B) {
	raw := messyPlan(30)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if res := Repair(raw, pool30, nil); len(res.Plan) != 30 {
			b.Fatal(res.Status)
		}
	}
}

// BenchmarkRepairMessy30Matcher is BenchmarkRepairMessy30 with the Matcher
// built once.
func BenchmarkRepairMessy30Matcher(b *testing.B) {
	raw := messyPlan(30)
	m := NewMatcher(pool30)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if res := m.Repair(raw, nil); len(res.Plan) != 30 {
			b.Fatal(res.Status)
		}
	}
}

// BenchmarkRepairClean30 repairs a strict 30-step plan.
func BenchmarkRepairClean30(b *testing.B) {
	raw := cleanPlan(30)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if res := Repair(raw, pool30, nil); res.Status != OK {
			b.Fatal(res.Status)
		}
	}
}

// BenchmarkRepairLongProse repairs a plan after 1 MiB of prose reasoning
// (no think tags) full of brackets: the search stays linear.
func BenchmarkRepairLongProse(b *testing.B) {
	var sb strings.Builder
	for sb.Len() < 1<<20 {
		sb.WriteString("Considering {p1, p2} and [p3] again; it's {\"a\": [1, 2, {\"b\": 'x'}] maybe. ")
	}
	sb.WriteString(cleanPlan(30))
	raw := sb.String()
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if res := Repair(raw, pool30, nil); len(res.Plan) != 30 {
			b.Fatal(res.Status, res.Error)
		}
	}
}

// BenchmarkRepairAdversarial repairs 1 MiB of unclosed brackets and quotes,
// the worst case for the candidate search.
func BenchmarkRepairAdversarial(b *testing.B) {
	raw := strings.Repeat(`[{"a":[`, 1<<20/7)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if res := Repair(raw, pool30, nil); res.Status != Unparseable {
			b.Fatal(res.Status)
		}
	}
}
