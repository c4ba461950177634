package figures

import (
	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/runs/report"
)

// label is a solver's name in figures (solverLabel).
func label(s report.Solver) string { return solverLabel(s.Model, s.Mode) }

// stem is a strategy and variant as file-name parts; a strategy without a
// prompt (vocab.NoVariant) is named by the strategy alone.
func stem(sv report.StrategyVariant) []string {
	if sv.Variant == vocab.NoVariant || sv.Variant == "" {
		return []string{string(sv.Strategy)}
	}
	return []string{string(sv.Strategy), string(sv.Variant)}
}
