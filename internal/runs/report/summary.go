package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// BudgetAwareHeadline is what the summary shows of a solver's budget-aware
// re-solve (over all its datasets).
type BudgetAwareHeadline struct {
	Model, Mode string
	// N re-solves; accuracies before and after; compliance over all N and
	// over the re-solves that finished by themselves.
	N                              int
	AccBaseline, AccBudgetAware    float64
	Compliance, ComplianceFinished float64
}

// SummaryTable is the report's headline as one table (SPEC §8's summary):
// per solver and strategy, base accuracy, η_U and η_E at the headline α
// (Report.Alpha) over the datasets with their intervals, the injection
// experiment's D / W at its headline ratio, and the budget-aware re-solve when ba has the solver.
// When a headline mean includes degenerate pools (SPEC §5), two columns
// say how many and give the mean over the informative pools alone. Columns
// without data anywhere are left out. The notes say what the numbers are
// over: the prompt variant, left-out datasets, excluded pools (each η
// mean says "n=k of m" and why when some of its pools were excluded),
// single-pool strata (what is left of them), degenerate pools and, when
// reference strategies are shown, how they differ from the references of
// η.
func (r Report) SummaryTable(ba []BudgetAwareHeadline) Table {
	rows := r.Headline()
	t := Table{Title: "Summary"}
	if len(rows) == 0 {
		t.Notes = []string{"The run store holds no scored cell yet."}
		return t
	}
	var withInjection, withDegenerate, withRandom, withReference, withLosses bool
	var lossFlags lossTextFlags
	var degenerate metrics.DegenerateCounts
	var pools int
	var zeros []string
	var singles singlePoolNotes
	var reasons []metrics.ReasonCount
	for _, row := range rows {
		withInjection = withInjection || row.Detection.Defined || row.Waste.Defined
		withDegenerate = withDegenerate || row.DegenerateU.Total() > 0 || row.DegenerateE.Total() > 0
		withRandom = withRandom || row.Strategy == vocab.Random
		withReference = withReference || row.Strategy != vocab.LLM
		withLosses = withLosses || row.Selection.Mean.Defined || row.Undecomposed > 0
		degenerate = degenerate.Add(row.DegenerateU)
		pools += row.EtaU.N
		singles.add(row)
		reasons = mergeReasons(slices.Concat(reasons, row.ExcludedU, row.ExcludedE))
		for _, d := range row.OracleZero {
			zeros = append(zeros, solverName(row.Model, row.Mode)+" on "+d)
		}
	}
	baOf := map[Solver]BudgetAwareHeadline{}
	for _, b := range ba {
		baOf[Solver{b.Model, b.Mode}] = b
	}
	a := alphaText(rows[0].Alpha)
	t.Header = []string{"Model", "Mode", "Strategy", "accuracy", fmt.Sprintf("η_U at α = %s [95%% CI]", a), fmt.Sprintf("η_E at α = %s [95%% CI]", a)}
	t.Align = "lllrrr"
	t.Notes = []string{"η: mean over datasets of the mean over pools (1 = the oracle, 0 = the random reference), with a 95% bootstrap interval over the pools, stratified by dataset; accuracy: base accuracy over the same datasets."}
	if v := r.HeadlineVariant; v != "" {
		if v == vocab.Default {
			t.Notes = append(t.Notes, fmt.Sprintf("Strategy llm under prompt variant %s (the paper's appendix prompt); the other variants are in the prompt-sensitivity tables.", v))
		} else {
			t.Notes = append(t.Notes, fmt.Sprintf("The run has no prompt variant %s: strategy llm is shown under variant %s, the first of its variants; the others are in the prompt-sensitivity tables.", vocab.Default, v))
		}
	}
	if len(zeros) > 0 {
		t.Notes = append(t.Notes, "Left out of the η means (SPEC §5), because every pool there has V_oracle = 0 (nothing solvable fits the budget, so η would be 1 by convention alone): "+strings.Join(zeros, "; ")+".")
	}
	if len(reasons) > 0 {
		t.Notes = append(t.Notes, noteExcludedPools(reasons))
	}
	t.Notes = append(t.Notes, singles.notes()...)
	if r.Noise != nil {
		t.Header = append(t.Header, "noise-aware η_U / η_E [95% CI]")
		t.Align += "r"
		t.Notes = append(t.Notes, fmt.Sprintf("noise-aware: the interval of the same means when each problem's (cost, correct) is also redrawn from its %d repeated Phase 0 samples (SPEC §9; see the Measurement noise table).", r.Noise.K))
	}
	if withDegenerate {
		t.Header = append(t.Header, "degenerate pools", "informative η_U / η_E [95% CI]")
		t.Align += "rr"
		t.Notes = append(t.Notes, fmt.Sprintf("These η means include %d degenerate pools of %d (SPEC §5; D1: V_oracle = 0, D2: V_oracle = V_random > 0, as at α = 1), whose η is 1 or 0 by convention, not measured; \"informative\" is the mean over the other pools alone (— when every pool is degenerate).", degenerate.Total(), pools))
	}
	if withInjection {
		t.Header = append(t.Header, fmt.Sprintf("D / W at r = %s", alphaText(rows[0].Ratio)))
		t.Align += "r"
		t.Notes = append(t.Notes, "D / W: detection (share of injected unsolvable problems left out, 1 is ideal) and waste (share of planned tokens spent on them, 0 is ideal).")
		if withReference {
			t.Notes = append(t.Notes, "D = 0 for the reference strategies (random, shortest_first, all_in_order): they give tokens to every problem of the pool and never consider whether it can be solved, so they leave out no unsolvable problem (one is left out only when its share rounds down to 0 tokens).")
		}
	}
	if withLosses {
		t.Header = append(t.Header, "where value is lost (regime E)")
		t.Align += "l"
		t.Notes[0] += " " + noteDominantLoss // the first note's paragraph: the summary stays short
	}
	if withRandom {
		t.Notes = append(t.Notes, "The random strategy is not the random reference: it is one seeded random plan per pool (a shuffled order, tokens in proportion to problem length) executed under regimes U and E like any plan, while the reference (η = 0) is the expected regime-U value of attempting every problem in a random order, over many seeded shuffles (1,000 by default). So its η_U scatters around 0 rather than being 0, and its η_E is lower: its allocations cut off attempts that regime U lets finish.")
	}
	if len(ba) > 0 {
		t.Header = append(t.Header, "budget-aware acc", "compliance (all / finished)")
		t.Align += "rr"
		t.Notes = append(t.Notes, "budget-aware: accuracy before → after the re-solve with the α = 1 plan's allocation stated; compliance: share of outputs within the allocation, over all re-solves / over those that ended by themselves.")
	}
	for _, row := range rows {
		strategy := string(row.Strategy)
		if row.Variant != vocab.NoVariant {
			strategy += " (" + string(row.Variant) + ")"
		}
		cells := []string{row.Model, row.Mode, strategy, fixed3(row.Accuracy), withCI(row.EtaU, row.EtaUCI, row.ciPools.etaU), withCI(row.EtaE, row.EtaECI, row.ciPools.etaE)}
		var eNotes []string // η_E's parenthesis: its pools, then the datasets left out of both means
		if n := poolsOfText(row.EtaU.N, row.ExcludedU); n != "" {
			cells[4] += " (" + n + ")"
		}
		if n := poolsOfText(row.EtaE.N, row.ExcludedE); n != "" {
			eNotes = append(eNotes, n)
		}
		if len(row.Missing) > 0 {
			eNotes = append(eNotes, "without "+strings.Join(row.Missing, ", "))
		}
		if len(row.OracleZero) > 0 {
			eNotes = append(eNotes, "without "+strings.Join(row.OracleZero, ", ")+": V_oracle = 0")
		}
		if len(eNotes) > 0 {
			cells[5] += " (" + strings.Join(eNotes, "; ") + ")"
		}
		if r.Noise != nil {
			cells = append(cells, ciText(row.EtaUNoiseCI, row.ciPools.etaU)+" / "+ciText(row.EtaENoiseCI, row.ciPools.etaE))
		}
		if withDegenerate {
			informative := withCI(row.InformativeU, row.InformativeUCI, row.ciPools.informativeU) + " / " + withCI(row.InformativeE, row.InformativeECI, row.ciPools.informativeE)
			if len(row.InformativeMissing) > 0 {
				informative += " (without " + strings.Join(row.InformativeMissing, ", ") + ")"
			}
			cells = append(cells, degenerateCount(row.DegenerateU, row.DegenerateE, row.EtaU.N, row.EtaE.N), informative)
		}
		if withInjection {
			cells = append(cells, fixed3(row.Detection)+" / "+fixed3(row.Waste))
		}
		if withLosses {
			text, flags := dominantLossText(row)
			cells = append(cells, text)
			lossFlags.add(flags)
		}
		if len(ba) > 0 {
			if b, ok := baOf[Solver{row.Model, row.Mode}]; ok && b.N > 0 {
				cells = append(cells, fmt.Sprintf("%s → %s (n=%d)", fmt3(b.AccBaseline), fmt3(b.AccBudgetAware), b.N),
					fmt3(b.Compliance)+" / "+fmt3(b.ComplianceFinished))
			} else {
				cells = append(cells, "", "")
			}
		}
		t.Rows = append(t.Rows, cells)
	}
	if withLosses {
		t.Notes[0] += lossFlags.notes()
	}
	return withFewPoolsNote(t)
}

// noteExcludedPools explains the summary's "n=k of m" for the reasons
// its rows exclude pools for, with what each reason means when it is one
// of the run's (reasonMeaning).
func noteExcludedPools(reasons []metrics.ReasonCount) string {
	var meanings []string
	for _, rc := range reasons {
		if m, ok := reasonMeaning[rc.Reason]; ok {
			meanings = append(meanings, string(rc.Reason)+" — "+m)
		}
	}
	note := "n=k of m: the η mean averages k of the solver's m pools; the other m − k have no η (SPEC §5: an excluded pool is left out of the means, never counted as 0), and the row's other η and loss columns leave them out too. \"m − k excluded: reason\" says why (\"reason:count\" when several)"
	if len(meanings) > 0 {
		note += ": " + strings.Join(meanings, "; ")
	}
	return note + ". pools.csv lists each excluded pool with its reason."
}

// reasonMeaning says what the exclusion reasons a run writes mean, for
// the summary's note on excluded pools.
var reasonMeaning = map[metrics.Reason]string{
	metrics.ExcludedError:        "the planner's model call failed after its retries",
	metrics.ExcludedUnparseable:  "no plan could be read from the planner's output",
	"truncated_unparseable":      "the planner's output was cut off before a plan could be read",
	metrics.ExcludedMissing:      "no plan is recorded for the pool",
	"empty_pool":                 "the pool has no gradeable problem, so no plan was asked for",
	metrics.ExcludedNoPopulation: "no solver of another model graded the pool, so the partial-information reference has nothing to learn from",
	metrics.ExcludedInvalid:      "the stored numbers are unusable (not finite, or inconsistent)",
	ExcludedDuplicate:            "the record repeats another of the same pool",
	"stale":                      "the record's inputs changed since it was scored",
}

// singlePoolNotes gathers the summary rows' datasets with a single pool
// with a value, for the notes that say what their intervals are.
type singlePoolNotes struct {
	// plain are the datasets whose single pool is all they had (merged
	// over the rows, which share the datasets' pools), excluded the
	// "solver on dataset (…)" phrases of those left with one pool by
	// exclusions: both enter every resample of a row's interval as they
	// are. noInterval are the "solver on dataset" phrases of the rows
	// whose means have a single pool with a value in all, and so no
	// interval.
	plain, excluded, noInterval []string
}

// add takes in one summary row's single-pool datasets.
func (s *singlePoolNotes) add(row HeadlineRow) {
	phrases := singlePoolPhrases(row.SinglePoolU, row.SinglePoolE)
	if len(phrases) == 0 {
		return
	}
	solver := solverName(row.Model, row.Mode)
	if !row.EtaUCI.Defined && !row.EtaECI.Defined {
		s.noInterval = append(s.noInterval, solver+" on "+singlePoolTexts(phrases))
		return
	}
	for _, p := range phrases {
		if p.plain {
			s.plain = mergeMissing(s.plain, []string{p.text})
		} else {
			s.excluded = append(s.excluded, solver+" on "+p.text)
		}
	}
}

// notes are the summary's notes on single-pool datasets: the one a run
// without exclusions has always had, naming the datasets of one pool,
// the solvers' datasets left with one pool by exclusions, and the rows
// without an interval.
func (s singlePoolNotes) notes() []string {
	var out []string
	const lead = "A dataset with a single pool"
	const excluded = "a dataset where a solver has a single pool with a value, the others excluded"
	switch {
	case len(s.plain) > 0 && len(s.excluded) > 0:
		out = append(out, lead+" ("+strings.Join(s.plain, ", ")+") enters every resample of the interval as it is: the interval reflects the other datasets' pools only. So does "+excluded+": "+strings.Join(s.excluded, "; ")+".")
	case len(s.plain) > 0:
		out = append(out, lead+" ("+strings.Join(s.plain, ", ")+") enters every resample of the interval as it is: the interval reflects the other datasets' pools only.")
	case len(s.excluded) > 0:
		out = append(out, "A"+excluded[1:]+", enters every resample of that solver's interval as it is, which then reflects the other datasets' pools only: "+strings.Join(s.excluded, "; ")+".")
	}
	if len(s.noInterval) > 0 {
		out = append(out, "No interval where a mean has a single pool with a value in all (SPEC §5: none below 2 pools): "+strings.Join(s.noInterval, "; ")+".")
	}
	return out
}

// noteDominantLoss explains the summary's column of DominantLoss.
const noteDominantLoss = "Where value is lost: the regret decomposition of SPEC §5, means over datasets of the means over pools with V_oracle > 0 — selection (the planned set could not reach the oracle), order (the order and the early stop lost value the set could have had) and enforcement (binding the plan's own allocations) — each as its value and, in parentheses, its share of their sum, the mean R̃_E of those pools (shares rounded to whole percents), the largest first (losses that print alike in that order: selection, order, enforcement). The \"Why plans lose value\" table has them per dataset with their intervals."

// noteNegativeLoss explains a negative loss in the summary's column of
// DominantLoss; the summary adds it when a row shows one.
const noteNegativeLoss = "Enforcement is signed: a negative enforcement loss, and share, means binding the plan's allocations recovered value that regime U had lost (V_E > V_U), so R̃_E is below R̃_U = selection + order and the other shares add up to more than 100%. The values are SPEC §5's, neither clamped nor rescaled: the shares still sum to 100% (up to rounding), and the smaller R̃_E, the larger they are."

// noteNoShares explains a row of the summary's column of DominantLoss
// whose R̃_E rounds to 0.000; the summary adds it when a row shows one.
const noteNoShares = "\"nothing lost\": R̃_E rounds to 0.000, so the losses are given as values alone, without shares — a share of a sum that small would be a loss divided by almost nothing (thousands of percent)."

// lossTextFlags say what a summary row's DominantLoss entry shows, for the
// notes that explain it.
type lossTextFlags struct {
	// negative: a loss below 0 (noteNegativeLoss).
	negative bool
	// noShares: R̃_E rounds to 0.000 and a loss is listed without a share
	// (noteNoShares).
	noShares bool
}

// add takes another row's flags into f.
func (f *lossTextFlags) add(g lossTextFlags) {
	f.negative = f.negative || g.negative
	f.noShares = f.noShares || g.noShares
}

// notes is what the summary's first note adds for the rows flagged: the
// notes on a negative loss and on losses without shares, each after a
// space, or "".
func (f lossTextFlags) notes() string {
	var out string
	if f.negative {
		out += " " + noteNegativeLoss
	}
	if f.noShares {
		out += " " + noteNoShares
	}
	return out
}

// dominantLossText is a summary row's DominantLoss: each loss's value and
// signed share of their sum, the largest first (rankedLosses),
// "selection 0.456 (62%), order 0.147 (20%), enforcement 0.132 (18%) of
// R̃_E 0.735"; "nothing lost (R̃_E 0.000)" when the sum rounds to 0,
// with the values alone, in the same order, when one of them does not
// ("nothing lost (R̃_E 0.000: order 0.200, selection 0.000, enforcement
// -0.200)"); or why there is none.
func dominantLossText(row HeadlineRow) (text string, flags lossTextFlags) {
	ranked, total, ok := row.rankedLosses()
	var parts []string
	switch {
	case ok && sharesDefined(total):
		for _, l := range ranked {
			parts = append(parts, fmt.Sprintf("%s %s (%s)", l.loss, fmt3(l.value), percent(l.value/total)))
			flags.negative = flags.negative || strings.HasPrefix(fmt3(l.value), "-")
		}
		text = strings.Join(parts, ", ") + " of R̃_E " + fmt3(total)
	case ok:
		text = "nothing lost (R̃_E " + fmt3(total)
		if slices.ContainsFunc(ranked, func(l lossValue) bool { return fmt3(l.value) != fmt3(0) }) { // offsetting losses
			for _, l := range ranked {
				parts = append(parts, fmt.Sprintf("%s %s", l.loss, fmt3(l.value)))
				flags.negative = flags.negative || strings.HasPrefix(fmt3(l.value), "-")
			}
			text += ": " + strings.Join(parts, ", ")
			flags.noShares = true
		}
		text += ")"
	case row.Undecomposed > 0:
		return fmt.Sprintf("%s (%s stored without a decomposition)", undefined, pools(row.Undecomposed)), flags
	default:
		return undefined + " (no pool with V_oracle > 0)", flags
	}
	if missing := row.Selection.Missing; len(missing) > 0 {
		text += "; without " + strings.Join(missing, ", ")
	}
	if row.Undecomposed > 0 {
		text += fmt.Sprintf("; %s without a decomposition", pools(row.Undecomposed))
	}
	return text, flags
}

// pools is "1 pool" or "k pools".
func pools(k int) string {
	if k == 1 {
		return "1 pool"
	}
	return strconv.Itoa(k) + " pools"
}

// percent formats a share as a whole percentage ("62%", "-28%"), without
// a negative zero.
func percent(x float64) string {
	p := strconv.FormatFloat(100*x, 'f', 0, 64)
	if p == "-0" {
		p = "0"
	}
	return p + "%"
}

// degenerateCount shows a U / E pair's degenerate pools out of the pools
// averaged: "D2:3 of 6", "D1:1, D2:2 of 12", "0 of 6"; counts are "u/e"
// when the regimes differ.
func degenerateCount(u, e metrics.DegenerateCounts, nu, ne int) string {
	kinds := degenerateKinds(u, e)
	if kinds == "" {
		kinds = "0"
	}
	return kinds + " of " + pairCount(nu, ne)
}

// WriteMarkdownTable writes one table as Markdown (title, notes, aligned
// pipe table), as Markdown does for each of its tables.
func WriteMarkdownTable(w io.Writer, t Table) error {
	bw := bufio.NewWriter(w)
	writeMarkdownTable(bw, t)
	return bw.Flush()
}
