package execution

import (
	"reflect"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/pool"
)

// want is the expected result of one regime.
type want struct {
	value     float64
	remaining int64
	outcomes  []Outcome
	stopped   int
}

func TestRegimes(t *testing.T) {
	S, T, X, N := Scored, Truncated, Stopped, NotReached
	tests := []struct {
		name   string
		items  []pool.Item
		raw    []Step
		budget int64
		u, e   want
	}{
		{
			name:   "empty plan",
			items:  []pool.Item{item("a", 10, true)},
			raw:    nil,
			budget: 100,
			u:      want{0, 100, []Outcome{}, -1},
			e:      want{0, 100, []Outcome{}, -1},
		},
		{
			name:   "everything fits",
			items:  []pool.Item{item("a", 10, true), item("b", 20, true)},
			raw:    []Step{{"a", 10}, {"b", 25}},
			budget: 100,
			u:      want{2, 70, []Outcome{S, S}, -1},
			e:      want{2, 65, []Outcome{S, S}, -1},
		},
		{
			name:   "U stops rather than skips",
			items:  []pool.Item{item("big", 80, true), item("cheap", 5, true)},
			raw:    []Step{{"big", 10}, {"cheap", 10}},
			budget: 50,
			u:      want{0, 50, []Outcome{X, N}, 0},
			e:      want{1, 30, []Outcome{T, S}, -1},
		},
		{
			name:   "U stops mid-plan",
			items:  []pool.Item{item("a", 30, true), item("b", 30, true), item("c", 1, true)},
			raw:    []Step{{"a", 1}, {"b", 1}, {"c", 1}},
			budget: 50,
			u:      want{1, 20, []Outcome{S, X, N}, 1},
			e:      want{1, 47, []Outcome{T, T, S}, -1},
		},
		{
			name:   "E deducts the allocation even when truncated",
			items:  []pool.Item{item("a", 100, true), item("b", 10, true)},
			raw:    []Step{{"a", 40}, {"b", 10}},
			budget: 60,
			u:      want{0, 60, []Outcome{X, N}, 0},
			e:      want{1, 10, []Outcome{T, S}, -1},
		},
		{
			name:   "E stops when an allocation exceeds what remains",
			items:  []pool.Item{item("a", 5, true), item("b", 5, true), item("c", 5, true)},
			raw:    []Step{{"a", 30}, {"b", 30}, {"c", 1}},
			budget: 50,
			u:      want{3, 35, []Outcome{S, S, S}, -1},
			e:      want{1, 20, []Outcome{S, X, N}, 1},
		},
		{
			name:   "E: cost equal to allocation scores",
			items:  []pool.Item{item("a", 25, true)},
			raw:    []Step{{"a", 25}},
			budget: 25,
			u:      want{1, 0, []Outcome{S}, -1},
			e:      want{1, 0, []Outcome{S}, -1},
		},
		{
			name:   "E: cost one above allocation truncates",
			items:  []pool.Item{item("a", 26, true)},
			raw:    []Step{{"a", 25}},
			budget: 30,
			u:      want{1, 4, []Outcome{S}, -1},
			e:      want{0, 5, []Outcome{T}, -1},
		},
		{
			name:   "exact fit of the budget runs",
			items:  []pool.Item{item("a", 20, true), item("b", 30, true)},
			raw:    []Step{{"a", 20}, {"b", 30}},
			budget: 50,
			u:      want{2, 0, []Outcome{S, S}, -1},
			e:      want{2, 0, []Outcome{S, S}, -1},
		},
		{
			name:   "over-budget plan is still executed",
			items:  []pool.Item{item("a", 10, true), item("b", 10, true), item("c", 10, true)},
			raw:    []Step{{"a", 20}, {"b", 20}, {"c", 20}},
			budget: 45,
			u:      want{3, 15, []Outcome{S, S, S}, -1},
			e:      want{2, 5, []Outcome{S, S, X}, 2},
		},
		{
			name:   "budget zero",
			items:  []pool.Item{item("a", 1, true), item("b", 1, true)},
			raw:    []Step{{"a", 1}, {"b", 1}},
			budget: 0,
			u:      want{0, 0, []Outcome{X, N}, 0},
			e:      want{0, 0, []Outcome{X, N}, 0},
		},
		{
			name:   "negative budget counts as zero",
			items:  []pool.Item{item("a", 1, true)},
			raw:    []Step{{"a", 1}},
			budget: -7,
			u:      want{0, 0, []Outcome{X}, 0},
			e:      want{0, 0, []Outcome{X}, 0},
		},
		{
			name:   "incorrect items gain 0 but consume budget",
			items:  []pool.Item{item("wrong", 30, false), item("right", 30, true)},
			raw:    []Step{{"wrong", 30}, {"right", 30}},
			budget: 50,
			u:      want{0, 20, []Outcome{S, X}, 1},
			e:      want{0, 20, []Outcome{S, X}, 1},
		},
		{
			name: "non-unit values",
			items: []pool.Item{
				{ID: "a", Cost: 10, Value: 2.5, Correct: true},
				{ID: "b", Cost: 10, Value: 0.25, Correct: true},
				{ID: "c", Cost: 10, Value: 7, Correct: false},
				{ID: "d", Cost: 10, Value: 4, Correct: true},
			},
			raw:    []Step{{"a", 10}, {"b", 5}, {"c", 10}, {"d", 10}},
			budget: 40,
			u:      want{6.75, 0, []Outcome{S, S, S, S}, -1},
			e:      want{6.5, 5, []Outcome{S, T, S, S}, -1},
		},
		{
			name:   "zero and negative allocations are not attempted",
			items:  []pool.Item{item("a", 10, true), item("b", 10, true), item("c", 10, true)},
			raw:    []Step{{"a", 0}, {"b", -10}, {"c", 10}},
			budget: 100,
			u:      want{1, 90, []Outcome{S}, -1},
			e:      want{1, 90, []Outcome{S}, -1},
		},
		{
			name:   "repeated id: first occurrence with 0 means never attempted",
			items:  []pool.Item{item("a", 10, true), item("b", 10, true)},
			raw:    []Step{{"a", 0}, {"b", 10}, {"a", 10}},
			budget: 100,
			u:      want{1, 90, []Outcome{S}, -1},
			e:      want{1, 90, []Outcome{S}, -1},
		},
		{
			name:   "repeated id: only the first allocation counts",
			items:  []pool.Item{item("a", 50, true)},
			raw:    []Step{{"a", 10}, {"a", 50}},
			budget: 100,
			u:      want{1, 50, []Outcome{S}, -1},
			e:      want{0, 90, []Outcome{T}, -1},
		},
		{
			name:   "unknown ids are ignored",
			items:  []pool.Item{item("a", 10, true)},
			raw:    []Step{{"zz", 1000}, {"a", 10}, {"A", 5}},
			budget: 10,
			u:      want{1, 0, []Outcome{S}, -1},
			e:      want{1, 0, []Outcome{S}, -1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustPool(t, tt.items...)
			plan := Normalize(p, tt.raw)
			check := func(regime string, got Result, w want) {
				t.Helper()
				if got.Value != w.value || got.Remaining != w.remaining || got.Stopped != w.stopped ||
					!reflect.DeepEqual(outcomes(got.Trace), w.outcomes) {
					t.Errorf("%s: value %v remaining %d stopped %d outcomes %v; want %v %d %d %v", regime,
						got.Value, got.Remaining, got.Stopped, outcomes(got.Trace), w.value, w.remaining, w.stopped, w.outcomes)
				}
				checkTrace(t, p, plan, got)
			}
			check("U", RunAdvisory(p, plan, tt.budget), tt.u)
			check("E", RunEnforced(p, plan, tt.budget), tt.e)
		})
	}
}

// checkTrace checks that every trace entry mirrors its plan step and pool
// item, and that gains and remaining budgets are consistent.
func checkTrace(t *testing.T, p *Pool, plan Plan, res Result) {
	t.Helper()
	if len(res.Trace) != len(plan.Steps) || res.Trace == nil {
		t.Fatalf("trace has %d entries for %d steps", len(res.Trace), len(plan.Steps))
	}
	var sum float64
	for k, e := range res.Trace {
		s, it := plan.Steps[k], p.Item(plan.Steps[k].Index)
		if e.Index != s.Index || e.ID != s.ID || e.ID != it.ID || e.Tokens != s.Tokens || e.Cost != it.Cost || e.Correct != it.Correct {
			t.Fatalf("trace[%d] = %+v does not mirror step %+v and item %+v", k, e, s, it)
		}
		if e.Outcome == Scored && e.Gain != it.Gain() || e.Outcome != Scored && e.Gain != 0 {
			t.Fatalf("trace[%d] = %+v: wrong gain", k, e)
		}
		sum += e.Gain
	}
	if sum != res.Value {
		t.Fatalf("Σ gain %v != value %v", sum, res.Value)
	}
	if n := len(res.Trace); n > 0 && res.Trace[n-1].Remaining != res.Remaining {
		t.Fatalf("last entry remaining %d != result remaining %d", res.Trace[n-1].Remaining, res.Remaining)
	}
}

func TestTraceDetails(t *testing.T) {
	p := mustPool(t, item("a", 10, true), item("b", 100, true), item("c", 5, false))
	plan := Normalize(p, []Step{{"a", 8}, {"c", 5}, {"b", 100}})
	got := RunEnforced(p, plan, 50)
	want := []TraceEntry{
		{Index: 0, ID: "a", Tokens: 8, Cost: 10, Correct: true, Outcome: Truncated, Remaining: 42},
		{Index: 2, ID: "c", Tokens: 5, Cost: 5, Correct: false, Outcome: Scored, Remaining: 37},
		{Index: 1, ID: "b", Tokens: 100, Cost: 100, Correct: true, Outcome: Stopped, Remaining: 37},
	}
	if !reflect.DeepEqual(got.Trace, want) || got.Stopped != 2 || got.Remaining != 37 || got.Value != 0 {
		t.Fatalf("RunEnforced = %+v", got)
	}
	got = RunAdvisory(p, plan, 50)
	want = []TraceEntry{
		{Index: 0, ID: "a", Tokens: 8, Cost: 10, Correct: true, Outcome: Scored, Gain: 1, Remaining: 40},
		{Index: 2, ID: "c", Tokens: 5, Cost: 5, Correct: false, Outcome: Scored, Remaining: 35},
		{Index: 1, ID: "b", Tokens: 100, Cost: 100, Correct: true, Outcome: Stopped, Remaining: 35},
	}
	if !reflect.DeepEqual(got.Trace, want) || got.Stopped != 2 || got.Remaining != 35 || got.Value != 1 {
		t.Fatalf("RunAdvisory = %+v", got)
	}
}

// TestHandBuiltPlan covers steps Normalize never emits: E counts an
// allocation ≤ 0 as 0.
func TestHandBuiltPlan(t *testing.T) {
	p := mustPool(t, item("a", 10, true), item("b", 10, true))
	plan := Plan{Steps: []PlannedStep{{0, "a", -5}, {1, "b", 0}}}
	got := RunEnforced(p, plan, 3)
	if got.Remaining != 3 || got.Value != 0 || !reflect.DeepEqual(outcomes(got.Trace), []Outcome{Truncated, Truncated}) {
		t.Fatalf("RunEnforced = %+v", got)
	}
}

// TestConcurrentUse runs many goroutines on one Pool; run with -race.
func TestConcurrentUse(t *testing.T) {
	p, raw, budget := benchPool(t)
	plan := Normalize(p, raw)
	wantU, wantE := RunAdvisory(p, plan, budget), RunEnforced(p, plan, budget)
	done := make(chan error)
	for range 8 {
		go func() {
			for range 200 {
				pl := Normalize(p, raw)
				if !reflect.DeepEqual(pl, plan) ||
					!reflect.DeepEqual(RunAdvisory(p, pl, budget), wantU) ||
					!reflect.DeepEqual(RunEnforced(p, pl, budget), wantE) {
					done <- errMismatch
					return
				}
			}
			done <- nil
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
