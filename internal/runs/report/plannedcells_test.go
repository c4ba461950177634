package report_test

import (
	"testing"

	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/runs/report"
)

// TestPlannedCells: the grid cells behind a report's means are counted as
// triage run counts them, each plan once however many regimes score it.
func TestPlannedCells(t *testing.T) {
	u, e := vocab.Advisory, vocab.Enforced
	for _, tc := range []struct {
		name  string
		cells []report.Cell
		want  int
	}{
		{"none", nil, 0},
		{"one regime", []report.Cell{{Regime: u, Pools: 3}, {Regime: u, Pools: 2}}, 5},
		{"two regimes", []report.Cell{{Regime: u, Pools: 3}, {Regime: e, Pools: 3}, {Regime: u, Pools: 2}, {Regime: e, Pools: 2}}, 5},
		{"E only", []report.Cell{{Regime: e, Pools: 4}}, 4},
	} {
		if got := report.PlannedCells(tc.cells); got != tc.want {
			t.Errorf("%s: PlannedCells = %d, want %d", tc.name, got, tc.want)
		}
	}
}
