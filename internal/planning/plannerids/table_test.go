package plannerids

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/planning/repair"
)

// leaky are ids of the kinds SPEC §1 names: each tells a model something.
var leaky = []string{"2024-I-14", "1873_A", "recSYN0001-abstain", "abstract_algebra-3f9a1c2b4d5e"}

func TestPairsRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		ids  []string
	}{
		{"empty pool", nil},
		{"dataset ids", leaky},
		{"ids that look like planner ids, permuted", []string{"p2", "p1", "p10"}},
		{"numbers", []string{"7", "3", "12"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			table, err := New(tt.ids)
			if err != nil {
				t.Fatal(err)
			}
			pairs := table.Pairs()
			if len(pairs) != len(tt.ids) || table.Len() != len(tt.ids) {
				t.Fatalf("%d pairs, Len %d, want %d", len(pairs), table.Len(), len(tt.ids))
			}
			for i, p := range pairs {
				if want := fmt.Sprintf("p%d", i+1); p.PlannerID != want || table.PlannerID(i) != want {
					t.Errorf("pair %d: planner id %q (PlannerID %q), want %q", i, p.PlannerID, table.PlannerID(i), want)
				}
				if p.ProblemID != tt.ids[i] {
					t.Errorf("pair %d: problem id %q, want %q", i, p.ProblemID, tt.ids[i])
				}
				if got, ok := table.ProblemID(p.PlannerID); !ok || got != tt.ids[i] {
					t.Errorf("ProblemID(%q) = %q, %v; want %q", p.PlannerID, got, ok, tt.ids[i])
				}
			}
			// ProblemID takes exact planner ids only; Repair reads the
			// other ways of writing them.
			for _, id := range []string{"p0", "P1", "1", "p" + fmt.Sprint(len(tt.ids)+1), ""} {
				if got, ok := table.ProblemID(id); ok {
					t.Errorf("ProblemID(%q) = %q, want none", id, got)
				}
			}
		})
	}
}

func TestNewRejects(t *testing.T) {
	tests := []struct {
		ids  []string
		want string
	}{
		{[]string{"a", ""}, `problem id 1 is empty`},
		{[]string{"a", "b", "a"}, `problem id "a" repeats (at 0 and 2)`},
	}
	for _, tt := range tests {
		if _, err := New(tt.ids); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%q) = %v, want an error with %q", tt.ids, err, tt.want)
		}
	}
}

// steps writes a plan as "id:tokens" words; drops writes dropped steps as
// "id:reason".
func steps(r repair.Result) string {
	var out []string
	for _, s := range r.Plan {
		out = append(out, fmt.Sprintf("%s:%d", s.ID, s.Tokens))
	}
	return strings.Join(out, " ")
}

func drops(r repair.Result) string {
	var out []string
	for _, d := range r.Dropped {
		out = append(out, fmt.Sprintf("%s:%s", d.ID, d.Reason))
	}
	return strings.Join(out, " ")
}

func TestRepairSpeaksPoolIDs(t *testing.T) {
	tests := []struct {
		name    string
		ids     []string
		raw     string
		status  repair.Status
		plan    string
		dropped string
	}{
		{"planner ids as given", leaky, `{"plan": [{"id": "p2", "tokens": 10}, {"id": "p1", "tokens": 20}]}`,
			repair.OK, "1873_A:10 2024-I-14:20", ""},
		{"numbers and canonical forms", leaky, `{"plan": [{"id": 3, "tokens": 5}, {"id": "4", "tokens": 6}, {"id": "[id: P1]", "tokens": 7}, {"id": "#02", "tokens": 8}]}`,
			repair.Repaired, "recSYN0001-abstain:5 abstract_algebra-3f9a1c2b4d5e:6 2024-I-14:7 1873_A:8", ""},
		{"unknown ids stay as written", leaky, `{"plan": [{"id": "p99", "tokens": 5}, {"id": "p0", "tokens": 5}, {"id": 7, "tokens": 5}, {"id": "p1", "tokens": 5}]}`,
			repair.Repaired, "2024-I-14:5", "p99:unknown_id p0:unknown_id 7:unknown_id"},
		{"a pool id written by the planner is unknown: it was never shown", leaky, `[{"id": "2024-I-14", "tokens": 5}, {"id": "p4", "tokens": 9}]`,
			repair.Repaired, "abstract_algebra-3f9a1c2b4d5e:9", "2024-I-14:unknown_id"},
		{"duplicates name their problem", leaky, `{"plan": [{"id": "p2", "tokens": 10}, {"id": 2, "tokens": 30}, {"id": "P2", "tokens": 40}]}`,
			repair.Repaired, "1873_A:10", "1873_A:duplicate 1873_A:duplicate"},
		{"zero and negative allocations name their problem", leaky, `{"plan": [{"id": "p3", "tokens": 0}, {"id": "4", "tokens": -5}, {"id": "p1", "tokens": 1}]}`,
			repair.Repaired, "2024-I-14:1", "recSYN0001-abstain:zero abstract_algebra-3f9a1c2b4d5e:negative"},
		{"pool ids that look like planner ids map by position", []string{"p2", "p1"}, `{"plan": [{"id": "p1", "tokens": 3}, {"id": "p2", "tokens": 4}]}`,
			repair.OK, "p2:3 p1:4", ""},
		{"numeric pool ids", []string{"7", "3"}, `{"plan": [{"id": "p2", "tokens": 3}, {"id": 1, "tokens": 4}, {"id": 7, "tokens": 1}]}`,
			repair.Repaired, "3:3 7:4", "7:unknown_id"},
		{"empty plan", leaky, `{"plan": []}`, repair.OK, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			table, err := New(tt.ids)
			if err != nil {
				t.Fatal(err)
			}
			got := table.Repair(tt.raw, nil)
			if got.Status != tt.status || steps(got) != tt.plan || drops(got) != tt.dropped {
				t.Errorf("status %v plan %q dropped %q\nwant %v plan %q dropped %q\nfixes %v",
					got.Status, steps(got), drops(got), tt.status, tt.plan, tt.dropped, got.Fixes)
			}
		})
	}
}

// TestRepairKeepsTheRest: mapping ids changes nothing else of the result.
func TestRepairKeepsTheRest(t *testing.T) {
	table, err := New(leaky)
	if err != nil {
		t.Fatal(err)
	}
	raw := "<think>p2 is quick</think>\n```json\n{\"plan\": [{\"id\": \"p2\", \"tokens\": \"1,200\"}, {\"id\": 3, \"tokens\": 800.7}, {\"id\": \"p9\", \"tokens\": 50},]}\n```"
	budget := int64(1500)
	got := table.Repair(raw, &budget)
	want := repair.Repair(raw, []string{"p1", "p2", "p3", "p4"}, &budget)
	if got.Status != want.Status || got.PlannedTokens != 2000 || got.PlannedTokens != want.PlannedTokens ||
		!got.OverBudget || got.Error != want.Error || !slices.Equal(got.Fixes, want.Fixes) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	if steps(got) != "1873_A:1200 recSYN0001-abstain:800" || drops(got) != "p9:unknown_id" {
		t.Errorf("plan %q dropped %q", steps(got), drops(got))
	}
	if bad := table.Repair("I would rather not.", &budget); bad.Status != repair.Unparseable || bad.Plan != nil || bad.Error == "" {
		t.Errorf("unparseable output: %+v", bad)
	}
}
