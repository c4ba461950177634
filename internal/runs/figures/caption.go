package figures

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/runs/report"
)

// intervalPhrase describes the report's bootstrap intervals, e.g. "95%
// percentile bootstrap intervals over the pools (10,000 resamples, seed 0;
// none below 2 pools)". b is resolved (Report.Bootstrap).
func intervalPhrase(b metrics.Bootstrap) string {
	level := strconv.FormatFloat(b.LevelPercent(), 'f', -1, 64)
	return fmt.Sprintf("%s%% percentile bootstrap intervals over the pools (%s resamples, seed %d; none below 2 pools)",
		level, report.FormatCount(b.Resamples), b.Seed)
}

// modePhrase names the bar colours of the modes present.
func modePhrase(modes []string) string {
	var parts []string
	for _, m := range sortedModes(modes) {
		switch m {
		case "standard":
			parts = append(parts, "navy standard inference")
		case "extended":
			parts = append(parts, "teal extended reasoning")
		default:
			parts = append(parts, "brown mode "+m)
		}
	}
	return "Bar colour: " + strings.Join(parts, ", ") + "."
}

// sentence joins non-empty parts with spaces.
func sentence(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " ")
}

// degenerateTally counts the degenerate pools (SPEC §5) inside the η means
// a figure draws, so that its caption says when they are there.
type degenerateTally struct {
	counts metrics.DegenerateCounts
	pools  int
	// noValue names the drawn cells whose pools are all D1.
	noValue []string
}

// add counts the pools of one drawn mean; where names it in the caption.
func (d *degenerateTally) add(c report.Cell, where string) {
	d.counts = d.counts.Add(c.Degenerate)
	d.pools += c.Eta.N
	if report.OracleZeroOnly(c) {
		d.noValue = append(d.noValue, where)
	}
}

// sentence is the caption's note on degenerate pools, "" when there are
// none. of names the means counted ("the η_U bars").
func (d degenerateTally) sentence(of string) string {
	if d.counts.Total() == 0 {
		return ""
	}
	var kinds []string
	if d.counts.NoValue > 0 {
		kinds = append(kinds, fmt.Sprintf("%d D1 (V_oracle = 0: nothing solvable fits the budget)", d.counts.NoValue))
	}
	if d.counts.Collapse > 0 {
		kinds = append(kinds, fmt.Sprintf("%d D2 (V_oracle = V_random > 0: every order reaches the oracle, as at α = 1)", d.counts.Collapse))
	}
	out := fmt.Sprintf("Of the %d pools behind %s, %d are degenerate (SPEC §5): %s. Their η is 1 or 0 by convention, not measured; the means include them, as the paper's do, and cells.csv gives each mean over the informative pools alone (eta_informative).",
		d.pools, of, d.counts.Total(), strings.Join(kinds, ", "))
	if len(d.noValue) > 0 {
		out += " Every pool is D1, so η = 1 by convention alone, for " + strings.Join(d.noValue, "; ") + "."
	}
	return out
}
