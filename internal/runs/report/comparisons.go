package report

import (
	"cmp"
	"io"
	"slices"
	"strings"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// Comparison answers "is solver A better than solver B here?": the mean
// paired difference η_A − η_B over the pools both scored, in one (dataset,
// α, strategy, variant, regime), with its bootstrap interval over those
// pools, and what those pools can detect (SPEC §9 "Power"). An interval
// that excludes 0 says the difference is not noise at the 95% level.
type Comparison struct {
	ModelA, ModeA, ModelB, ModeB string
	Dataset                      string
	Alpha                        float64
	Strategy                     vocab.Strategy
	Variant                      vocab.Variant
	Regime                       vocab.Regime
	// Diff is the mean difference, N the pools both solvers scored.
	Diff metrics.Mean
	CI   metrics.Interval
	// Power is the minimum detectable difference at 80% power and a 5%
	// two-sided level over those pools, and the pools needed to detect
	// 0.05, from the SD of the paired differences (metrics.PairedPower).
	Power metrics.Power

	diffs []float64
}

// buildComparisons pairs every two solvers of every (dataset, α, strategy,
// variant, regime) of the plain cells (A before B in solver order).
func (r *Report) buildComparisons() {
	type scopeKey struct {
		dataset  string
		alpha    float64
		strategy vocab.Strategy
		variant  vocab.Variant
		regime   vocab.Regime
	}
	groups := map[scopeKey][]*Cell{}
	var keys []scopeKey
	for i := range r.Cells {
		c := &r.Cells[i]
		k := scopeKey{c.Dataset, c.Alpha, c.Strategy, c.Variant, c.Regime}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], c) // in solver order: Cells is sorted by model, mode first
	}
	r.Comparisons = []Comparison{}
	for _, k := range keys {
		cells := groups[k]
		for i, a := range cells {
			for _, b := range cells[i+1:] {
				pair := Comparison{
					ModelA: a.Model, ModeA: a.Mode, ModelB: b.Model, ModeB: b.Mode,
					Dataset: k.dataset, Alpha: k.alpha, Strategy: k.strategy, Variant: k.variant, Regime: k.regime,
				}
				pair.diffs = pairedDiffs(a.perPool, b.perPool)
				var sum float64
				for _, d := range pair.diffs {
					sum += d
				}
				pair.Diff = meanOf(sum, len(pair.diffs))
				pair.Power = metrics.PairedPower(pair.diffs)
				r.Comparisons = append(r.Comparisons, pair)
			}
		}
	}
	slices.SortFunc(r.Comparisons, compareComparisons)
}

// pairedDiffs returns η_A − η_B for every pool both scored, in pool order.
func pairedDiffs(a, b perPool) []float64 {
	etaB := make(map[int]float64, len(b.etaPools))
	for i, p := range b.etaPools {
		etaB[p] = b.eta[i]
	}
	var out []float64
	for i, p := range a.etaPools {
		if eb, ok := etaB[p]; ok {
			out = append(out, a.eta[i]-eb)
		}
	}
	return out
}

func compareComparisons(a, b Comparison) int {
	return cmp.Or(
		vocab.CompareStrategies(a.Strategy, b.Strategy), vocab.CompareVariants(a.Variant, b.Variant),
		cmp.Compare(a.Dataset, b.Dataset), cmp.Compare(a.Alpha, b.Alpha), vocab.CompareRegimes(a.Regime, b.Regime),
		cmp.Compare(a.ModelA, b.ModelA), cmp.Compare(a.ModeA, b.ModeA),
		cmp.Compare(a.ModelB, b.ModelB), cmp.Compare(a.ModeB, b.ModeB),
	)
}

// ComparisonTables returns one table per (strategy, variant) of the
// headline (Report.HeadlineScopes: the llm strategy under the headline variant, else every
// reference strategy but the partial-information ones): rows (dataset, α, regime, A, B), the mean paired difference of
// η with its interval, the pools it is over, the minimum detectable
// difference at those pools and the pools needed to detect 0.05.
func (r Report) ComparisonTables() []Table {
	var out []Table
	for _, sv := range r.HeadlineScopes {
		t := Table{
			Title: "Paired differences of η between solvers — " + ScopePhrase(sv.Strategy, sv.Variant),
			Notes: []string{
				"One row per pair of solvers A, B and (dataset, α, regime): the mean of η_A − η_B over the pools both scored, [lo, hi] its 95% bootstrap interval over those pools (paired: the same pools, the same budgets), n = pools. An interval that excludes 0 says A and B differ there beyond the noise of the pools; — = no pool scored by both.",
				"Power (paired, normal approximation from the observed SD s_d of η_A − η_B, 5% two-sided level, 80% power): MDD = (z_0.975 + z_0.80)·s_d/√n = 2.802·s_d/√n is the smallest true difference these n pools detect; n for 0.05 = ⌈(2.802·s_d/0.05)²⌉ (at least 2) pools would detect a difference of 0.05. — = fewer than 2 pools; s_d = 0 gives MDD 0.",
			},
			Header: []string{"Dataset", "α", "Regime", "A", "B", "η_A − η_B [95% CI]", "n", "MDD", "n for 0.05"},
			Align:  "lrlllrrrr",
		}
		for _, c := range r.Comparisons {
			if c.Strategy != sv.Strategy || c.Variant != sv.Variant {
				continue
			}
			t.Rows = append(t.Rows, []string{
				c.Dataset, alphaText(c.Alpha), string(c.Regime), solverName(c.ModelA, c.ModeA), solverName(c.ModelB, c.ModeB),
				withCI(c.Diff, c.CI, c.Diff.N), itoa(c.Diff.N), mddText(c.Power), poolsNeededText(c.Power),
			})
		}
		if len(t.Rows) > 0 {
			out = append(out, withFewPoolsNote(t))
		}
	}
	return out
}

// ComparisonsCSV writes every comparison: strategy, variant, dataset, alpha,
// regime, model_a, mode_a, model_b, mode_b, pools, diff, diff_lo, diff_hi,
// diff_sd (the sample SD of the paired differences), mdd (the minimum
// detectable difference at 80% power, 5% two-sided) and pools_for_0.05
// (full precision; empty fields where undefined, as with fewer than 2
// pools).
func (r Report) ComparisonsCSV(w io.Writer) error {
	rows := [][]string{{"strategy", "variant", "dataset", "alpha", "regime", "model_a", "mode_a", "model_b", "mode_b", "pools", "diff", "diff_lo", "diff_hi", "diff_sd", "mdd", "pools_for_0.05"}}
	for _, c := range r.Comparisons {
		rows = append(rows, append([]string{
			string(c.Strategy), string(c.Variant), c.Dataset, full(c.Alpha), string(c.Regime), c.ModelA, c.ModeA, c.ModelB, c.ModeB,
			itoa(c.Diff.N), fullMean(c.Diff),
		}, append(ciBounds(c.CI), powerFields(c.Power)...)...))
	}
	return writeCSV(w, rows)
}

// solverName is "model mode", for table cells.
func solverName(model, mode string) string { return strings.TrimSpace(model + " " + mode) }

// mddText formats a comparison's minimum detectable difference with 3
// decimals, "—" when undefined.
func mddText(p metrics.Power) string {
	if !p.Defined {
		return undefined
	}
	return fmt3(p.MDD)
}

// poolsNeededText formats the pools needed to detect 0.05, "—" when
// undefined.
func poolsNeededText(p metrics.Power) string {
	if !p.Defined {
		return undefined
	}
	return FormatCount(p.PoolsNeeded)
}

// powerFields formats a comparison's paired SD, MDD and pools needed for
// CSV: full precision, three empty fields when undefined.
func powerFields(p metrics.Power) []string {
	if !p.Defined {
		return []string{"", "", ""}
	}
	return []string{full(p.SD), full(p.MDD), itoa(p.PoolsNeeded)}
}
