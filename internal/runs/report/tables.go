package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// Table is one rendered table, format-neutral: plain Unicode text that
// Markdown shows as is and LaTeX escapes (see LaTeX).
type Table struct {
	// Title says what the table shows: metric, α, strategy, variant, regime.
	Title string
	// Notes explain how to read it.
	Notes []string
	// Header names the columns.
	Header []string
	// Align has one byte per column: 'l' (text) or 'r' (numbers).
	Align string
	// Rows hold len(Header) cells each; "" is an absent cell.
	Rows [][]string
}

// Notes shared by the solver × dataset and solver × α tables.
const (
	noteCounts = "[lo, hi] = 95% bootstrap interval over the pools (none below two pools); n = pools averaged, shown u/e when regimes U and E differ; — = undefined (no pool averaged); an empty cell has no records."
	noteExcl   = "excluded: pools left out of the means, by reason (\"reason:count\", u/e when the regimes differ)."
)

// solverDatasetTable is the paper's main table shape at one α: rows are
// solvers (model, mode), columns datasets, each cell "η_U / η_E (n=…)" (or
// R̃ when regret is set, where pools without R̃ count as "oracle=0"); a last
// column lists the exclusions per dataset.
func (r Report) solverDatasetTable(ix *Index, alpha float64, strategy vocab.Strategy, variant vocab.Variant, regret bool) Table {
	keep := func(c Cell) bool { return c.Alpha == alpha && c.Strategy == strategy && c.Variant == variant }
	datasets := Distinct(r.Cells, keep, func(c Cell) string { return c.Dataset })
	what := "mean η over the pools with a scored plan"
	if regret {
		what = "mean R̃ over the pools with a scored plan and V_oracle > 0 (lower is better)"
	}
	t := Table{
		Title: MainTableTitle(regret, alpha, strategy, variant),
		Notes: []string{
			fmt.Sprintf("Rows: solvers (model, mode); columns: datasets. Each cell: %s, regime U / regime E.", what),
			noteCounts, noteExcl,
		},
		Header: append(append([]string{"Model", "Mode"}, datasets...), "excluded"),
		Align:  "ll" + strings.Repeat("r", len(datasets)) + "l",
	}
	if !regret && r.anyDegenerate(keep) {
		t.Notes = append(t.Notes, noteDegenerate)
	}
	if r.anyExcluded(keep, metrics.ExcludedNoPopulation) {
		t.Notes = append(t.Notes, noteNoPopulation)
	}
	for _, s := range Solvers(r.Cells, keep) {
		row := []string{s.Model, s.Mode}
		var excl []string
		for _, d := range datasets {
			text, ex := pairEntry(ix, s, d, alpha, variant, strategy, regret)
			row = append(row, text)
			if ex != "" {
				excl = append(excl, d+": "+ex)
			}
		}
		t.Rows = append(t.Rows, append(row, strings.Join(excl, "; ")))
	}
	return withFewPoolsNote(t)
}

// MainTableTitle is the title of the η table (R̃ when regret is set) at one
// α of one strategy and variant; the HTML report finds the table by it.
func MainTableTitle(regret bool, alpha float64, strategy vocab.Strategy, variant vocab.Variant) string {
	name := "η"
	if regret {
		name = "R̃"
	}
	return fmt.Sprintf("%s_U / %s_E at α = %s — %s", name, name, alphaText(alpha), ScopePhrase(strategy, variant))
}

// noteDegenerate explains the degenerate-pool counts of η cells (SPEC §5).
const noteDegenerate = "Degenerate pools (SPEC §5) are counted in each mean as \"degenerate D1:k, D2:m\": D1 has V_oracle = 0 (nothing solvable fits the budget; η = 1 for any plan), D2 has V_oracle = V_random > 0 (every order reaches the oracle, as at α = 1; η = 1 or 0). Their η is set by convention, not measured; the means include them, as the paper's do, and \"informative\" gives the mean over the other pools alone, with its interval and n (\"no informative pool\" when every pool is degenerate)."

// singlePoolText is the note that names the datasets a stratified interval
// takes as they are, because the solver has a single pool with a value
// there (SPEC §5), among the macro cells keep accepts ("" when there are
// none), with what is left of a dataset whose other pools were excluded
// (singlePoolPhrases).
func singlePoolText(macros []Cell, keep func(Cell) bool) string {
	type key struct {
		solver   string // "model mode at α = a"
		variant  vocab.Variant
		strategy vocab.Strategy
	}
	var keys []key
	byKey := map[key][2][]SinglePoolDataset{}
	for _, c := range macros {
		if !keep(c) || len(c.SinglePool) == 0 {
			continue
		}
		k := key{solverName(c.Model, c.Mode) + " at α = " + alphaText(c.Alpha), c.Variant, c.Strategy}
		pair, seen := byKey[k]
		if !seen {
			keys = append(keys, k)
		}
		if c.Regime == vocab.Enforced {
			pair[1] = c.SinglePool
		} else {
			pair[0] = c.SinglePool
		}
		byKey[k] = pair
	}
	var parts []string
	plain := true
	for _, k := range keys {
		pair := byKey[k]
		phrases := singlePoolPhrases(pair[0], pair[1])
		for _, p := range phrases {
			plain = plain && p.plain
		}
		parts = appendNew(parts, k.solver+": "+singlePoolTexts(phrases))
	}
	if len(parts) == 0 {
		return ""
	}
	if plain {
		return "A dataset with a single pool enters every resample of the interval over datasets as it is (it has no spread to resample), so that interval reflects the other datasets' pools only: " + strings.Join(parts, "; ") + "."
	}
	return "A dataset with a single pool with a value (its only pool, or the one left when the others were excluded) enters every resample of the interval over datasets as it is (it has no spread to resample), so that interval reflects the other datasets' pools only: " + strings.Join(parts, "; ") + "."
}

// anyDegenerate reports whether a cell that keep accepts has a degenerate
// pool in its η mean.
func (r Report) anyDegenerate(keep func(Cell) bool) bool {
	return slices.ContainsFunc(r.Cells, func(c Cell) bool { return keep(c) && c.Degenerate.Total() > 0 })
}

// anyExcluded reports whether a cell that keep accepts left a pool out
// for reason.
func (r Report) anyExcluded(keep func(Cell) bool, reason metrics.Reason) bool {
	return slices.ContainsFunc(r.Cells, func(c Cell) bool {
		return keep(c) && slices.ContainsFunc(c.Excluded, func(rc metrics.ReasonCount) bool { return rc.Reason == reason })
	})
}

// alphaTable is the per-α breakdown of η for one dataset, or for the
// macro-average over datasets when dataset is AllDatasets (see Report.Macro).
func (r Report) alphaTable(ix *Index, dataset string, strategy vocab.Strategy, variant vocab.Variant) Table {
	keep := func(c Cell) bool {
		return c.Strategy == strategy && c.Variant == variant && (dataset == AllDatasets || c.Dataset == dataset)
	}
	alphas := Distinct(r.Cells, keep, func(c Cell) float64 { return c.Alpha })
	t := Table{
		Title: fmt.Sprintf("η_U / η_E by α — %s, %s", datasetPhrase(dataset), ScopePhrase(strategy, variant)),
		Notes: []string{
			"Rows: solvers (model, mode); columns: budget fraction α. Each cell: mean η over the pools with a scored plan, regime U / regime E.",
			noteCounts, noteExcl,
		},
		Align: "ll" + strings.Repeat("r", len(alphas)) + "l",
	}
	if dataset == AllDatasets {
		t.Notes[0] += " Each mean is the unweighted mean of the solver's defined per-dataset means; n sums their pools; \"without d\" names a dataset with no defined mean, left out of that mean (and of every comparison across solvers or variants); \"without d (V_oracle = 0)\" a dataset whose pools all have V_oracle = 0 for the solver, left out because its η is 1 by convention alone (SPEC §5). Intervals are stratified: each resample redraws every dataset's pools within that dataset."
		if singles := singlePoolText(r.Macros, keep); singles != "" {
			t.Notes = append(t.Notes, singles)
		}
	}
	if r.anyDegenerate(keep) {
		t.Notes = append(t.Notes, noteDegenerate)
	}
	if r.anyExcluded(keep, metrics.ExcludedNoPopulation) {
		t.Notes = append(t.Notes, noteNoPopulation)
	}
	t.Header = []string{"Model", "Mode"}
	for _, a := range alphas {
		t.Header = append(t.Header, "α = "+alphaText(a))
	}
	t.Header = append(t.Header, "excluded")
	for _, s := range Solvers(r.Cells, keep) {
		row := []string{s.Model, s.Mode}
		var excl []string
		for _, a := range alphas {
			text, ex := pairEntry(ix, s, dataset, a, variant, strategy, false)
			row = append(row, text)
			if ex != "" {
				excl = append(excl, "α="+alphaText(a)+": "+ex)
			}
		}
		t.Rows = append(t.Rows, append(row, strings.Join(excl, "; ")))
	}
	return withFewPoolsNote(t)
}

// pairEntry formats the U and E cells of one solver as "u / e (n=…)" and
// their exclusions; both are "" when neither cell exists. A missing regime
// shows as undefined with 0 pools.
func pairEntry(ix *Index, s Solver, dataset string, alpha float64, variant vocab.Variant, strategy vocab.Strategy, regret bool) (text, excl string) {
	u, uok := ix.get(s.Model, s.Mode, dataset, alpha, variant, strategy, vocab.Advisory)
	e, eok := ix.get(s.Model, s.Mode, dataset, alpha, variant, strategy, vocab.Enforced)
	if !uok && !eok {
		return "", ""
	}
	mu, me, cu, ce, pu, pe := u.Eta, e.Eta, u.EtaCI, e.EtaCI, u.etaCIPools(), e.etaCIPools()
	if regret {
		mu, me, cu, ce, pu, pe = u.Regret, e.Regret, u.RegretCI, e.RegretCI, u.regretCIPools(), e.regretCIPools()
	}
	text = fmt.Sprintf("%s / %s (n=%s%s", withCI(mu, cu, pu), withCI(me, ce, pe), pairCount(mu.N, me.N), withoutText(u, e, regret))
	if !regret {
		text += degenerateText(u, e) + noisePairText(u, e)
	}
	return text + ")", pairReasons(exclusions(u, regret), exclusions(e, regret))
}

// noisePairText gives the pair's noise-aware η intervals (SPEC §9,
// Cell.EtaNoiseCI) as "; noise-aware [lo, hi] / [lo, hi]", or "" when
// neither cell has one (one sample per item, or a macro cell at another α
// than the headline's).
func noisePairText(u, e Cell) string {
	if !u.EtaNoiseCI.Defined && !e.EtaNoiseCI.Defined {
		return ""
	}
	return "; noise-aware " + ciText(u.EtaNoiseCI, u.etaCIPools()) + " / " + ciText(e.EtaNoiseCI, e.etaCIPools())
}

// withoutText names the datasets a macro pair leaves out ("; without
// gpqa; without aime (V_oracle = 0)"), or "" when both means cover every
// dataset in scope.
func withoutText(u, e Cell, regret bool) string {
	missing := mergeMissing(u.Missing, e.Missing)
	if regret {
		missing = mergeMissing(u.RegretMissing, e.RegretMissing)
	}
	var out string
	if len(missing) > 0 {
		out = "; without " + strings.Join(missing, ", ")
	}
	if zero := mergeMissing(u.OracleZero, e.OracleZero); len(zero) > 0 {
		out += "; without " + strings.Join(zero, ", ") + " (V_oracle = 0)"
	}
	return out
}

// degenerateKinds shows the degenerate counts of a U / E pair of means as
// "D1:k, D2:m", a count "u/e" when the regimes differ and a kind with none
// in either left out; "" when there are none. A single mean passes its
// counts twice.
func degenerateKinds(u, e metrics.DegenerateCounts) string {
	var kinds []string
	if u.NoValue > 0 || e.NoValue > 0 {
		kinds = append(kinds, "D1:"+pairCount(u.NoValue, e.NoValue))
	}
	if u.Collapse > 0 || e.Collapse > 0 {
		kinds = append(kinds, "D2:"+pairCount(u.Collapse, e.Collapse))
	}
	return strings.Join(kinds, ", ")
}

// degenerateText describes the degenerate pools of a U / E pair of η means
// and the means over their informative pools ("; degenerate D2:3;
// informative 0.500 [0.2, 0.8] / 0.250 [0.1, 0.4], n=2"), or "" when
// neither mean has a degenerate pool.
func degenerateText(u, e Cell) string {
	if u.Degenerate.Total() == 0 && e.Degenerate.Total() == 0 {
		return ""
	}
	kinds := degenerateKinds(u.Degenerate, e.Degenerate)
	if !u.Informative.Defined && !e.Informative.Defined {
		return "; degenerate " + kinds + ", no informative pool"
	}
	informative := fmt.Sprintf("%s / %s, n=%s", withCI(u.Informative, u.InformativeCI, u.informativeCIPools()), withCI(e.Informative, e.InformativeCI, e.informativeCIPools()), pairCount(u.Informative.N, e.Informative.N))
	if missing := mergeMissing(u.InformativeMissing, e.InformativeMissing); len(missing) > 0 {
		informative += ", without " + strings.Join(missing, ", ")
	}
	return "; degenerate " + kinds + "; informative " + informative
}

// AccuracyTable shows base accuracy: rows solvers (model, mode), columns
// datasets, each cell "accuracy (n=gradeable items)".
func (r Report) AccuracyTable() Table {
	var datasets []string
	var rows []Solver
	for _, a := range r.Accuracy {
		datasets = append(datasets, a.Dataset)
		rows = append(rows, Solver{a.Model, a.Mode})
	}
	slices.Sort(datasets)
	datasets = slices.Compact(datasets)
	rows = slices.Compact(rows) // r.Accuracy is sorted by model, mode
	t := Table{
		Title: "Base accuracy",
		Notes: []string{
			"Rows: solvers (model, mode); columns: datasets. Each cell: correct answers / gradeable items in the ground truth (n = gradeable items); independent of α.",
		},
		Header: append([]string{"Model", "Mode"}, datasets...),
		Align:  "ll" + strings.Repeat("r", len(datasets)),
	}
	if slices.ContainsFunc(r.Accuracy, func(a AccuracyRow) bool { return a.Unsolvable > 0 }) {
		t.Notes = append(t.Notes, "Unsolvable items (SPEC §1) always count as wrong; \"lucky k/u\": the grader accepted k of the u unsolvable answers, which are kept for audit and never scored.")
	}
	if slices.ContainsFunc(r.Accuracy, func(a AccuracyRow) bool { return a.PublicTestsOnly > 0 }) {
		t.Notes = append(t.Notes, "\"public-only k\": k of the n items are code problems without hidden tests, graded on their public tests alone (in LiveCodeBench the statement's examples), which a program can pass by looking its input up; import with --require-hidden-tests to leave them out.")
	}
	for _, s := range rows {
		row := []string{s.Model, s.Mode}
		for _, d := range datasets {
			i := slices.IndexFunc(r.Accuracy, func(a AccuracyRow) bool {
				return a.Model == s.Model && a.Mode == s.Mode && a.Dataset == d
			})
			if i < 0 {
				row = append(row, "")
				continue
			}
			a := r.Accuracy[i]
			text := fmt.Sprintf("%s (n=%d)", fixed3(a.Accuracy), a.Accuracy.N)
			if a.Unsolvable > 0 {
				text += fmt.Sprintf(" lucky %d/%d", a.LuckyGuesses, a.Unsolvable)
			}
			if a.PublicTestsOnly > 0 {
				text += fmt.Sprintf(" public-only %d", a.PublicTestsOnly)
			}
			row = append(row, text)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// CellsTable lists every cell with all its numbers: the audit view behind
// the other tables.
func (r Report) CellsTable() Table {
	t := Table{
		Title: "All cells",
		Notes: []string{
			"One row per (model, mode, dataset, α, variant, strategy, regime). pools = records; η n and R̃ n = pools averaged; D1 / D2 = pools of the η mean that are degenerate (SPEC §5: V_oracle = 0 / V_oracle = V_random > 0, η set by convention); informative η = the mean over the other pools of the η mean (n = informative n); no R̃ = pools in the η mean with V_oracle = 0; excluded = pools left out of both means, by reason; acc = base accuracy; mismatch = records whose stored η/R̃ disagree with the recomputed ones; short = pools that are their partition's short last pool; dropped = problems of the pools left out for want of gradeable ground truth; rand s.e. = the largest standard error of a Monte Carlo random reference averaged (0: exact; — when no pool was averaged); selection / order / enforcement = the regret decomposition's mean losses (SPEC §5) over the decomposed pools (n), undecomposed = pools of the R̃ mean whose records carry none, decomp. mismatch = records whose losses break selection + order = R̃_U (+ enforcement = R̃_E) beyond 1e-12; precision / recall / cost forecast / under-allocation = the plan diagnostics' means (n each).",
		},
		Header: []string{"Model", "Mode", "Dataset", "α", "Variant", "Strategy", "Regime", "pools", "η [95% CI]", "η n", "D1 / D2", "informative η [95% CI]", "informative n", "R̃ [95% CI]", "R̃ n", "no R̃", "excluded", "acc", "mismatch", "short", "dropped", "rand s.e.",
			"selection / order / enforcement", "n", "undecomposed", "decomp. mismatch", "precision / recall / cost forecast / under-allocation", "n"},
		Align: "lllrlllrrrrrrrrrlrrrrrrrrrrr",
	}
	if r.Noise != nil {
		t.Notes = append(t.Notes, "η noise-aware [95% CI] = the interval of the η mean over the pools and the repeated Phase 0 samples (SPEC §9; see Measurement noise); unmatched = records the noise input does not reproduce (no interval then).")
		t.Header = append(t.Header, "η noise-aware [95% CI]", "unmatched")
		t.Align += "rr"
	}
	for _, c := range r.Cells {
		var noise []string
		if r.Noise != nil {
			noise = []string{withCI(c.Eta, c.EtaNoiseCI, c.etaCIPools()), fmt.Sprint(c.NoiseUnmatched)}
		}
		t.Rows = append(t.Rows, append([]string{
			c.Model, c.Mode, c.Dataset, alphaText(c.Alpha), string(c.Variant), string(c.Strategy), string(c.Regime),
			fmt.Sprint(c.Pools), withCI(c.Eta, c.EtaCI, c.etaCIPools()), fmt.Sprint(c.Eta.N),
			fmt.Sprintf("%d / %d", c.Degenerate.NoValue, c.Degenerate.Collapse), withCI(c.Informative, c.InformativeCI, c.informativeCIPools()), fmt.Sprint(c.Informative.N),
			withCI(c.Regret, c.RegretCI, c.regretCIPools()), fmt.Sprint(c.Regret.N),
			fmt.Sprint(c.RegretUndefined), reasonsText(c.Excluded, ", "), fixed3(c.BaseAccuracy), fmt.Sprint(c.StoredMismatch),
			fmt.Sprint(c.ShortPools), fmt.Sprint(c.Dropped), fixed3(c.RandomSEMax),
			fixed3(c.Selection.Mean) + " / " + fixed3(c.Order.Mean) + " / " + fixed3(c.Enforcement.Mean), fmt.Sprint(c.Selection.Mean.N),
			fmt.Sprint(c.Undecomposed), fmt.Sprint(c.DecompositionMismatch),
			fixed3(c.Precision.Mean) + " / " + fixed3(c.Recall.Mean) + " / " + fixed3(c.CostForecast.Mean) + " / " + fixed3(c.UnderAllocation.Mean),
			pairCount(c.Precision.Mean.N, c.Recall.Mean.N) + " / " + pairCount(c.CostForecast.Mean.N, c.UnderAllocation.Mean.N),
		}, noise...))
	}
	return withFewPoolsNote(t)
}

// rangeTable shows prompt sensitivity of η in one (strategy, regime,
// dataset): rows (model, mode, α), a column per variant and the range.
func rangeTable(sens Sensitivity, strategy vocab.Strategy, regime vocab.Regime, dataset string) Table {
	var rows []VariantRange
	var variants []vocab.Variant
	for _, vr := range sens.Ranges {
		if vr.Strategy == strategy && vr.Regime == regime && vr.Dataset == dataset {
			rows = append(rows, vr)
			for _, v := range vr.Variants {
				variants = appendNew(variants, v.Variant)
			}
		}
	}
	slices.SortFunc(variants, vocab.CompareVariants)
	t := Table{
		Title: fmt.Sprintf("Prompt sensitivity of η_%s — strategy %s, %s", regime, strategy, datasetPhrase(dataset)),
		Notes: []string{
			"Rows: (model, mode, α); a column per prompt variant: mean η (n = pools averaged); range = max − min across the variants with a defined mean (— when fewer than two).",
		},
		Header: []string{"Model", "Mode", "α"},
		Align:  "llr" + strings.Repeat("r", len(variants)+1),
	}
	for _, v := range variants {
		t.Header = append(t.Header, fmt.Sprintf("η_%s (%s)", regime, v))
	}
	t.Header = append(t.Header, "range")
	var ranges []float64
	withDegenerate := false
	for _, vr := range rows {
		row := []string{vr.Model, vr.Mode, alphaText(vr.Alpha)}
		for _, v := range variants {
			i := slices.IndexFunc(vr.Variants, func(x VariantEta) bool { return x.Variant == v })
			if i < 0 {
				row = append(row, "")
				continue
			}
			m, deg := vr.Variants[i].Eta, vr.Variants[i].Degenerate
			text := fmt.Sprintf("%s (n=%d", fixed3(m), m.N)
			if deg.Total() > 0 {
				text += "; " + degenerateKinds(deg, deg)
				withDegenerate = true
			}
			row = append(row, text+")")
		}
		rng := undefined
		if vr.Defined {
			rng = fmt3(vr.Range)
			ranges = append(ranges, vr.Range)
		}
		t.Rows = append(t.Rows, append(row, rng))
	}
	small := 0
	for _, x := range ranges {
		if x < 0.10 {
			small++
		}
	}
	t.Notes = append(t.Notes, fmt.Sprintf("Rows with range < 0.10: %d / %d defined; median range: %s.", small, len(ranges), median(ranges)))
	if withDegenerate {
		t.Notes = append(t.Notes, "D1:k, D2:m: the mean includes that many degenerate pools (SPEC §5: V_oracle = 0 / V_oracle = V_random > 0), whose η is set by convention rather than measured; cells.csv gives each cell's mean over the informative pools alone.")
	}
	return t
}

// median formats the median of xs with 3 decimals, "—" for none.
func median(xs []float64) string {
	if len(xs) == 0 {
		return undefined
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return fmt3(s[n/2])
	}
	return fmt3((s[n/2-1] + s[n/2]) / 2)
}

// tauTable shows Kendall's τ_b between the solver rankings of each pair of
// prompt variants, with the minimum τ_b and the largest range per row.
func tauTable(sens Sensitivity, strategy vocab.Strategy) Table {
	type rowKey struct {
		dataset string
		regime  vocab.Regime
		alpha   float64
	}
	var keys []rowKey
	var pairs [][2]vocab.Variant
	for _, ra := range sens.Ranks {
		if ra.Strategy == strategy {
			keys = appendNew(keys, rowKey{ra.Dataset, ra.Regime, ra.Alpha})
			pairs = appendNew(pairs, [2]vocab.Variant{ra.A, ra.B})
		}
	}
	slices.SortFunc(pairs, func(a, b [2]vocab.Variant) int {
		return cmp.Or(vocab.CompareVariants(a[0], b[0]), vocab.CompareVariants(a[1], b[1]))
	})
	t := Table{
		Title: "Ranking stability across prompt variants — strategy " + string(strategy),
		Notes: []string{
			"Rows: (dataset, regime, α). τ_b(A, B): Kendall's τ_b between the solver rankings by mean η under variants A and B (n = solvers with η under both); min τ_b over the pairs; max range: the largest range across variants of any solver in the row.",
		},
		Header: []string{"Dataset", "Regime", "α"},
		Align:  "llr" + strings.Repeat("r", len(pairs)+2),
	}
	for _, p := range pairs {
		t.Header = append(t.Header, fmt.Sprintf("τ_b(%s, %s)", p[0], p[1]))
	}
	t.Header = append(t.Header, "min τ_b", "max range")
	for _, k := range keys {
		row := []string{datasetLabel(k.dataset), string(k.regime), alphaText(k.alpha)}
		minTau := metrics.Mean{}
		for _, p := range pairs {
			i := slices.IndexFunc(sens.Ranks, func(ra RankAgreement) bool {
				return ra.Strategy == strategy && ra.Dataset == k.dataset && ra.Regime == k.regime &&
					ra.Alpha == k.alpha && ra.A == p[0] && ra.B == p[1]
			})
			if i < 0 {
				row = append(row, "")
				continue
			}
			ra := sens.Ranks[i]
			tau := metrics.Mean{Value: ra.Tau, N: ra.Solvers, Defined: ra.Defined}
			row = append(row, fmt.Sprintf("%s (n=%d)", fixed3(tau), ra.Solvers))
			if ra.Defined && (!minTau.Defined || ra.Tau < minTau.Value) {
				minTau = metrics.Mean{Value: ra.Tau, Defined: true}
			}
		}
		maxRange := metrics.Mean{}
		for _, vr := range sens.Ranges {
			if vr.Strategy == strategy && vr.Dataset == k.dataset && vr.Regime == k.regime && vr.Alpha == k.alpha &&
				vr.Defined && (!maxRange.Defined || vr.Range > maxRange.Value) {
				maxRange = metrics.Mean{Value: vr.Range, Defined: true}
			}
		}
		t.Rows = append(t.Rows, append(row, fixed3(minTau), fixed3(maxRange)))
	}
	return t
}

// Tables returns every table of the report, in the order Markdown and LaTeX
// write them: base accuracy; then for each (strategy, variant), sorted, the
// η and R̃ tables at each α, and the per-α table over all datasets
// and per dataset; then the "Why plans lose value" tables (LossTables) and
// the self-knowledge table (SelfKnowledgeTable); then the comparisons of
// solvers (ComparisonTables); then
// for each strategy with several variants the
// range table per regime and dataset (AllDatasets first) and the τ_b table;
// then the injection tables (InjectionTables).
// The cell-by-cell listing is CellsTable, written separately.
func (r Report) Tables() []Table {
	var ts []Table
	ix := r.Index()
	if len(r.Accuracy) > 0 {
		ts = append(ts, r.AccuracyTable())
	}
	for _, sv := range r.Scopes {
		keep := func(c Cell) bool { return c.Strategy == sv.Strategy && c.Variant == sv.Variant }
		for _, a := range Distinct(r.Cells, keep, func(c Cell) float64 { return c.Alpha }) {
			ts = append(ts, r.solverDatasetTable(ix, a, sv.Strategy, sv.Variant, false),
				r.solverDatasetTable(ix, a, sv.Strategy, sv.Variant, true))
		}
		ts = append(ts, r.alphaTable(ix, AllDatasets, sv.Strategy, sv.Variant))
		for _, d := range Distinct(r.Cells, keep, func(c Cell) string { return c.Dataset }) {
			ts = append(ts, r.alphaTable(ix, d, sv.Strategy, sv.Variant))
		}
	}
	ts = append(ts, r.LossTables()...)
	if t, ok := r.NoiseTable(); ok {
		ts = append(ts, t)
	}
	if t, ok := r.SelfKnowledgeTable(); ok {
		ts = append(ts, t)
	}
	ts = append(ts, r.ComparisonTables()...)
	sens := r.Sensitivity()
	type group struct {
		strategy vocab.Strategy
		regime   vocab.Regime
		dataset  string
	}
	var groups []group
	var strategies []vocab.Strategy
	for _, vr := range sens.Ranges { // sorted by strategy, regime, dataset
		groups = appendNew(groups, group{vr.Strategy, vr.Regime, vr.Dataset})
		strategies = appendNew(strategies, vr.Strategy)
	}
	for _, ra := range sens.Ranks {
		strategies = appendNew(strategies, ra.Strategy)
	}
	slices.SortFunc(strategies, vocab.CompareStrategies)
	for _, s := range strategies {
		for _, g := range groups {
			if g.strategy == s {
				ts = append(ts, rangeTable(sens, g.strategy, g.regime, g.dataset))
			}
		}
		ts = append(ts, tauTable(sens, s))
	}
	return append(ts, r.InjectionTables()...)
}
