package cli

import (
	"strings"
	"testing"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
)

// TestBaselineSummaryCountsCalls: with one sample the line counts problems
// as it always did; with k samples it counts calls and says so.
func TestBaselineSummaryCountsCalls(t *testing.T) {
	m := &triagev1.BaselineSummary{Solved: 6, Gradeable: 6, Correct: 4}
	tests := []struct {
		samples, total, skipped, stale int
		want                           string
	}{
		{1, 30, 24, 0, "m/extended: 30 problems, 24 already stored; solved 6: 4 correct"},
		{0, 30, 24, 0, "m/extended: 30 problems, 24 already stored; solved 6: 4 correct"},
		{3, 90, 84, 0, "m/extended: 90 calls (30 problems × 3 samples), 84 already stored; solved 6: 4 correct"},
		{1, 30, 24, 2, "m/extended: 30 problems, 24 already stored, 2 stored stale (measured on another text, grading or unsolvable mark) and solved again; solved 6: 4 correct"},
	}
	for _, tc := range tests {
		var b strings.Builder
		printBaselineSummaries(&b, []orchestrator.BaselineSummary{{Solver: orchestrator.Solver{Model: "m", Mode: "extended"},
			Total: tc.total, Skipped: tc.skipped, Stale: tc.stale, Samples: tc.samples, Summary: m}})
		if !strings.HasPrefix(b.String(), tc.want) {
			t.Errorf("samples %d: %q, want it to start %q", tc.samples, b.String(), tc.want)
		}
	}
}
