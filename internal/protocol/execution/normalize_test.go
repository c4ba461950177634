package execution

import (
	"math"
	"reflect"
	"strconv"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/pool"
)

// idOf names the i-th item of a generated pool.
func idOf(i int) string { return "id-" + strconv.Itoa(i) }

func TestNormalize(t *testing.T) {
	p := mustPool(t, item("p1", 10, true), item("p2", 20, false), item("p3", 30, true), item("p4", 40, true))
	tests := []struct {
		name    string
		raw     []Step
		steps   []PlannedStep
		log     []Drop
		planned int64
	}{
		{
			name:  "empty plan is valid",
			raw:   nil,
			steps: []PlannedStep{},
			log:   []Drop{},
		},
		{
			name:    "order kept",
			raw:     []Step{{"p3", 5}, {"p1", 7}, {"p4", 1}},
			steps:   []PlannedStep{{2, "p3", 5}, {0, "p1", 7}, {3, "p4", 1}},
			log:     []Drop{},
			planned: 13,
		},
		{
			name:    "unknown ids dropped",
			raw:     []Step{{"p9", 5}, {"p2", 7}, {"P2", 3}, {"", 1}},
			steps:   []PlannedStep{{1, "p2", 7}},
			log:     []Drop{{0, "p9", 5, DropUnknownID}, {2, "P2", 3, DropUnknownID}, {3, "", 1, DropUnknownID}},
			planned: 7,
		},
		{
			name:    "repeated id keeps first occurrence",
			raw:     []Step{{"p2", 5}, {"p1", 7}, {"p2", 100}, {"p2", 1}},
			steps:   []PlannedStep{{1, "p2", 5}, {0, "p1", 7}},
			log:     []Drop{{2, "p2", 100, DropDuplicate}, {3, "p2", 1, DropDuplicate}},
			planned: 12,
		},
		{
			name:    "first occurrence with 0 means not attempted at all",
			raw:     []Step{{"p3", 0}, {"p1", 7}, {"p3", 50}},
			steps:   []PlannedStep{{0, "p1", 7}},
			log:     []Drop{{0, "p3", 0, DropZero}, {2, "p3", 50, DropDuplicate}},
			planned: 7,
		},
		{
			name:    "first occurrence negative means not attempted at all",
			raw:     []Step{{"p3", -4}, {"p3", 50}, {"p4", 2}},
			steps:   []PlannedStep{{3, "p4", 2}},
			log:     []Drop{{0, "p3", -4, DropNegative}, {1, "p3", 50, DropDuplicate}},
			planned: 2,
		},
		{
			name:    "negative and zero dropped",
			raw:     []Step{{"p1", -1}, {"p2", 0}, {"p3", math.MinInt64}, {"p4", 1}},
			steps:   []PlannedStep{{3, "p4", 1}},
			log:     []Drop{{0, "p1", -1, DropNegative}, {1, "p2", 0, DropZero}, {2, "p3", math.MinInt64, DropNegative}},
			planned: 1,
		},
		{
			name:    "unknown id checked before allocation",
			raw:     []Step{{"zz", -3}, {"zz", 0}},
			steps:   []PlannedStep{},
			log:     []Drop{{0, "zz", -3, DropUnknownID}, {1, "zz", 0, DropUnknownID}},
			planned: 0,
		},
		{
			name:    "duplicate checked before allocation",
			raw:     []Step{{"p1", 3}, {"p1", -3}, {"p1", 0}},
			steps:   []PlannedStep{{0, "p1", 3}},
			log:     []Drop{{1, "p1", -3, DropDuplicate}, {2, "p1", 0, DropDuplicate}},
			planned: 3,
		},
		{
			name:    "everything dropped",
			raw:     []Step{{"p1", 0}, {"x", 9}},
			steps:   []PlannedStep{},
			log:     []Drop{{0, "p1", 0, DropZero}, {1, "x", 9, DropUnknownID}},
			planned: 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Normalize(p, tt.raw)
			if !reflect.DeepEqual(got.Steps, tt.steps) {
				t.Errorf("Steps = %v, want %v", got.Steps, tt.steps)
			}
			if !reflect.DeepEqual(got.Log, tt.log) {
				t.Errorf("Log = %v, want %v", got.Log, tt.log)
			}
			if got.PlannedTokens != tt.planned {
				t.Errorf("PlannedTokens = %d, want %d", got.PlannedTokens, tt.planned)
			}
		})
	}
}

func TestNormalizeNilPool(t *testing.T) {
	got := Normalize(nil, []Step{{"p1", 3}})
	want := []Drop{{0, "p1", 3, DropUnknownID}}
	if len(got.Steps) != 0 || !reflect.DeepEqual(got.Log, want) {
		t.Fatalf("Normalize(nil) = %+v", got)
	}
}

// TestNormalizeLarge covers plans and pools beyond the stack scratch sizes.
func TestNormalizeLarge(t *testing.T) {
	const n = 1000
	items := make([]Step, 0, 2*n)
	poolItems := make([]pool.Item, n)
	for i := range n {
		poolItems[i] = item(idOf(i), 1, true)
	}
	p := mustPool(t, poolItems...)
	for i := n - 1; i >= 0; i-- {
		items = append(items, Step{idOf(i), int64(i % 3)})
	}
	for i := range n {
		items = append(items, Step{idOf(i), 1})
	}
	got := Normalize(p, items)
	kept := 0
	for i := n - 1; i >= 0; i-- {
		if i%3 != 0 {
			kept++
		}
	}
	if len(got.Steps) != kept || len(got.Log) != 2*n-kept {
		t.Fatalf("kept %d, dropped %d; want %d, %d", len(got.Steps), len(got.Log), kept, 2*n-kept)
	}
	for _, d := range got.Log[len(got.Log)-n:] {
		if d.Reason != DropDuplicate {
			t.Fatalf("second pass drop %+v, want duplicate", d)
		}
	}
}

func TestPlannedTokensAndOverBudget(t *testing.T) {
	p := mustPool(t, item("a", 1, true), item("b", 1, true), item("c", 1, true))
	plan := Normalize(p, []Step{{"a", 40}, {"b", 60}})
	if plan.PlannedTokens != 100 {
		t.Fatalf("PlannedTokens = %d", plan.PlannedTokens)
	}
	for budget, want := range map[int64]bool{0: true, 99: true, 100: false, 101: false} {
		if got := plan.OverBudget(budget); got != want {
			t.Errorf("OverBudget(%d) = %v, want %v", budget, got, want)
		}
	}

	huge := Normalize(p, []Step{{"a", math.MaxInt64}, {"b", 1}, {"c", math.MaxInt64}})
	if huge.PlannedTokens != math.MaxInt64 || !huge.OverBudget(math.MaxInt64) {
		t.Fatalf("saturated plan: PlannedTokens = %d, OverBudget(max) = %v", huge.PlannedTokens, huge.OverBudget(math.MaxInt64))
	}
	exact := Normalize(p, []Step{{"a", math.MaxInt64 - 1}, {"b", 1}})
	if exact.PlannedTokens != math.MaxInt64 || exact.OverBudget(math.MaxInt64) {
		t.Fatalf("exact max: PlannedTokens = %d, OverBudget(max) = %v", exact.PlannedTokens, exact.OverBudget(math.MaxInt64))
	}
}

func TestAllocations(t *testing.T) {
	p := mustPool(t, item("a", 1, true), item("b", 1, true), item("c", 1, true))
	plan := Normalize(p, []Step{{"c", 7}, {"a", 0}, {"b", 3}, {"c", 9}})
	if got, want := plan.Allocations(p), []int64{0, 3, 7}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Allocations = %v, want %v", got, want)
	}
}
