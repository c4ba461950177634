package execution

import (
	"strconv"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/pool"
)

// benchPool returns a 30-item pool like the default protocol's, with a raw
// plan over all 30 items in a shuffled order, with unknown and repeated ids
// and zero/negative allocations mixed in.
func benchPool(tb testing.TB) (*Pool, []Step, int64) {
	tb.Helper()
	items := make([]pool.Item, 30)
	var total int64
	for i := range items {
		c := int64(500 + (i*7919)%4000)
		items[i] = pool.Item{ID: "p" + strconv.Itoa(i+1), Cost: c, Value: 1, Correct: i%3 != 0}
		total += c
	}
	p, err := NewPool(items)
	if err != nil {
		tb.Fatal(err)
	}
	plan := make([]Step, 0, 36)
	for k := range 30 {
		i := (k * 11) % 30 // a permutation of 0..29
		plan = append(plan, Step{ID: items[i].ID, Tokens: items[i].Cost + int64((k%5-2)*100)})
		if k%10 == 4 {
			plan = append(plan, Step{ID: "q" + strconv.Itoa(k), Tokens: 100}) // unknown
		}
		if k%10 == 7 {
			plan = append(plan, Step{ID: items[(k*11)%30].ID, Tokens: 50}) // repeat
		}
	}
	return p, plan, total / 2
}

// BenchmarkExecuteBoth30 measures the execution core: Normalize and both
// regimes' values (Execute) for a 30-item pool with a 36-step raw plan; the
// Pool is built beforehand.
func BenchmarkExecuteBoth30(b *testing.B) {
	p, raw, budget := benchPool(b)
	b.ReportAllocs()
	for b.Loop() {
		plan := Normalize(p, raw)
		u := Execute(p, plan, budget, Advisory)
		e := Execute(p, plan, budget, Enforced)
		if u.Value < 0 || e.Value < 0 {
			b.Fatal("negative value")
		}
	}
}

// BenchmarkExecuteBoth30WithTrace is BenchmarkExecuteBoth30 with both
// traces materialized (RunAdvisory and RunEnforced), as ExecutePlan returns
// them unless asked not to.
func BenchmarkExecuteBoth30WithTrace(b *testing.B) {
	p, raw, budget := benchPool(b)
	b.ReportAllocs()
	for b.Loop() {
		plan := Normalize(p, raw)
		u := RunAdvisory(p, plan, budget)
		e := RunEnforced(p, plan, budget)
		if len(u.Trace) != 30 || len(e.Trace) != 30 {
			b.Fatal("unexpected plan length")
		}
	}
}

// BenchmarkNormalize30 measures Normalize alone on the same input.
func BenchmarkNormalize30(b *testing.B) {
	p, raw, _ := benchPool(b)
	b.ReportAllocs()
	for b.Loop() {
		Normalize(p, raw)
	}
}

// BenchmarkRunBoth30 measures RunAdvisory + RunEnforced on a normalized plan.
func BenchmarkRunBoth30(b *testing.B) {
	p, raw, budget := benchPool(b)
	plan := Normalize(p, raw)
	b.ReportAllocs()
	for b.Loop() {
		RunAdvisory(p, plan, budget)
		RunEnforced(p, plan, budget)
	}
}

var (
	sinkSteps []PlannedStep
	sinkDrops []Drop
	sinkTrace []TraceEntry
)

// BenchmarkResultAllocFloor is a control: it only allocates the four result
// slices that BenchmarkExecuteBoth30 returns (30 steps, 6 drops, two 30-entry
// traces), to show how much of that benchmark is allocation and GC.
func BenchmarkResultAllocFloor(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkSteps = make([]PlannedStep, 30)
		sinkDrops = make([]Drop, 6)
		sinkTrace = make([]TraceEntry, 30)
		sinkTrace = make([]TraceEntry, 30)
	}
}
