package repair

import (
	"encoding/json"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/execution"
)

func TestRender(t *testing.T) {
	if got := Render(nil); got != `{"plan":[]}` {
		t.Errorf("Render(nil) = %s", got)
	}
	plan := []execution.Step{{ID: "p3", Tokens: 800}, {ID: "p1", Tokens: 1200}}
	if got, want := Render(plan), `{"plan":[{"id":"p3","tokens":800},{"id":"p1","tokens":1200}]}`; got != want {
		t.Errorf("Render = %s, want %s", got, want)
	}
	odd := []string{`a"b`, `c\d`, "e\nf\tg\x01", "<think>", "</think>x", " sp ", "ü", ""}
	steps := make([]execution.Step, len(odd))
	for i, id := range odd {
		steps[i] = execution.Step{ID: id, Tokens: int64(i + 1)}
	}
	text := Render(steps)
	var decoded struct {
		Plan []struct {
			ID     string `json:"id"`
			Tokens int64  `json:"tokens"`
		} `json:"plan"`
	}
	if err := json.Unmarshal([]byte(text), &decoded); err != nil {
		t.Fatalf("Render output is not JSON: %v\n%s", err, text)
	}
	for i, s := range decoded.Plan {
		if s.ID != odd[i] || s.Tokens != int64(i+1) {
			t.Errorf("step %d decodes as %q %d", i, s.ID, s.Tokens)
		}
	}
	res := Repair(text, odd, nil)
	if res.Status != OK || planString(res.Plan) != planString(steps) {
		t.Errorf("repairing the rendering: %v %v %v", res.Status, res.Fixes, res.Plan)
	}
}

func TestStatusText(t *testing.T) {
	for _, s := range []Status{OK, Repaired, Unparseable} {
		b, err := s.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Status
		if err := back.UnmarshalText(b); err != nil || back != s || s.String() != string(b) {
			t.Errorf("%v round-trips to %v (%v)", s, back, err)
		}
	}
	if _, err := Status(0).MarshalText(); err == nil {
		t.Error("Status(0) marshals")
	}
	var s Status
	if err := s.UnmarshalText([]byte("fine")); err == nil {
		t.Error(`"fine" unmarshals`)
	}
	if Status(9).String() != "Status(9)" {
		t.Error(Status(9).String())
	}
}

func TestBudgetAndDrops(t *testing.T) {
	raw := `{"plan":[{"id":"p1","tokens":600},{"id":"P2","tokens":500},{"id":"x","tokens":1},{"id":"p2","tokens":0}]}`
	b := int64(1000)
	res := Repair(raw, pool30, &b)
	if !res.OverBudget || res.PlannedTokens != 1100 {
		t.Errorf("OverBudget %v, PlannedTokens %d", res.OverBudget, res.PlannedTokens)
	}
	want := []execution.Drop{
		{Index: 2, ID: "x", Tokens: 1, Reason: execution.DropUnknownID},
		{Index: 3, ID: "p2", Tokens: 0, Reason: execution.DropDuplicate},
	}
	if len(res.Dropped) != len(want) {
		t.Fatalf("Dropped %v", res.Dropped)
	}
	for i := range want {
		if res.Dropped[i] != want[i] {
			t.Errorf("Dropped[%d] = %+v, want %+v", i, res.Dropped[i], want[i])
		}
	}
	b = 1100
	if res := Repair(raw, pool30, &b); res.OverBudget {
		t.Error("plan at the budget is over budget")
	}
	if res := Repair(raw, pool30, nil); res.OverBudget {
		t.Error("OverBudget without a budget")
	}
}

// TestNormalizeAgrees checks that execution.Normalize keeps every step of a
// repaired plan.
func TestNormalizeAgrees(t *testing.T) {
	ids := pool30
	for _, tc := range repairCases {
		if tc.pool != nil {
			continue
		}
		res := Repair(tc.raw, ids, nil)
		if res.Status == Unparseable {
			continue
		}
		plan := execution.NormalizeIDs(len(ids), NewMatcher(ids).lookup, res.Plan)
		if len(plan.Log) != 0 || len(plan.Steps) != len(res.Plan) {
			t.Errorf("%s: normalizing the repaired plan drops %v", tc.name, plan.Log)
		}
	}
}
