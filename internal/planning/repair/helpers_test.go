package repair

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/execution"
)

// numbered returns the ids prefix+1 … prefix+n, each number padded to width
// digits.
func numbered(prefix string, n, width int) []string {
	ids := make([]string, n)
	for i := range ids {
		d := strconv.Itoa(i + 1)
		for len(d) < width {
			d = "0" + d
		}
		ids[i] = prefix + d
	}
	return ids
}

// pool30 is the default 30-item pool, p1…p30.
var pool30 = numbered("p", 30, 0)

// planString formats a plan as "p3:800 p1:1200".
func planString(plan []execution.Step) string {
	parts := make([]string, len(plan))
	for k, s := range plan {
		parts[k] = s.ID + ":" + strconv.FormatInt(s.Tokens, 10)
	}
	return strings.Join(parts, " ")
}

// fixSet formats the distinct Fix steps of a result, sorted, space-separated.
func fixSet(fixes []Fix) string {
	var names []string
	for _, f := range fixes {
		if !slices.Contains(names, f.Step) {
			names = append(names, f.Step)
		}
	}
	slices.Sort(names)
	return strings.Join(names, " ")
}

// sortedFixes sorts a space-separated list of Fix steps.
func sortedFixes(s string) string {
	names := strings.Fields(s)
	slices.Sort(names)
	return strings.Join(names, " ")
}

// checkResult checks the invariants every Result has, whatever the input.
func checkResult(t *testing.T, m *Matcher, raw string, res Result) {
	t.Helper()
	switch res.Status {
	case OK, Repaired:
		if res.Plan == nil || res.Dropped == nil || res.Error != "" {
			t.Fatalf("%v result with Plan %v, Dropped %v, Error %q", res.Status, res.Plan, res.Dropped, res.Error)
		}
		if (res.Status == OK) != (len(res.Fixes) == 0) {
			t.Fatalf("status %v with %d fixes", res.Status, len(res.Fixes))
		}
	case Unparseable:
		if res.Plan != nil || res.Dropped != nil || res.Error == "" {
			t.Fatalf("unparseable result with Plan %v, Dropped %v, Error %q", res.Plan, res.Dropped, res.Error)
		}
		return
	default:
		t.Fatalf("invalid status %v", res.Status)
	}
	seen := map[string]bool{}
	var sum int64
	for _, s := range res.Plan {
		if _, ok := m.exact[s.ID]; !ok || seen[s.ID] || s.Tokens <= 0 {
			t.Fatalf("bad plan step %+v in %v", s, res.Plan)
		}
		seen[s.ID] = true
		if sum > 1<<63-1-s.Tokens {
			sum = 1<<63 - 1
		} else {
			sum += s.Tokens
		}
	}
	if res.PlannedTokens != sum {
		t.Fatalf("PlannedTokens %d, want %d", res.PlannedTokens, sum)
	}
	for _, f := range res.Fixes {
		if f.Step == "" || f.Detail == "" {
			t.Fatalf("empty fix %+v", f)
		}
	}
}
