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

// whiskerTally counts a bar figure's whiskers: all of them, and the few
// over fewer than report.FewPools pools, which the report's tables mark
// report.FewPoolsMark. The bar figures draw cells of one dataset, whose
// intervals are over their n pools (a mean over datasets would count by
// its smallest dataset, as the tables do).
type whiskerTally struct{ all, few int }

// add counts the whisker of a mean over n pools.
func (w *whiskerTally) add(n int) {
	w.all++
	if n < report.FewPools {
		w.few++
	}
}

// sentence is the caption's warning on the whiskers over fewer than
// report.FewPools pools, in the words of the tables' note
// (report.FewPoolsCaveat); "" when there are none.
func (w whiskerTally) sentence() string {
	var which string
	switch {
	case w.few == 0:
		return ""
	case w.few == w.all && w.all == 1:
		which = "The whisker is"
	case w.few == w.all:
		which = "Every whisker is"
	case w.few == 1:
		which = fmt.Sprintf("1 of the %d whiskers is", w.all)
	default:
		which = fmt.Sprintf("%d of the %d whiskers are", w.few, w.all)
	}
	return fmt.Sprintf("%s over fewer than %d pools (%s in the report's tables): %s.", which, report.FewPools, report.FewPoolsMark, report.FewPoolsCaveat)
}

// legend is the whiskers' legend entry: "95% CI" (the report's level);
// "range of the pools (n < 5)" when every whisker is over fewer than
// report.FewPools pools, "95% CI (range if n < 5)" when some are.
func (w whiskerTally) legend(b metrics.Bootstrap) string {
	ci := strconv.FormatFloat(b.LevelPercent(), 'f', -1, 64) + "% CI"
	switch w.few {
	case 0:
		return ci
	case w.all:
		return fmt.Sprintf("range of the pools (n < %d)", report.FewPools)
	}
	return fmt.Sprintf("%s (range if n < %d)", ci, report.FewPools)
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
