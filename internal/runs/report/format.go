package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/triage-eval/triage/internal/protocol/metrics"
)

// undefined is how Markdown and LaTeX tables show an undefined mean.
const undefined = "—"

// fixed3 formats a mean with 3 decimals, or "—" when it is undefined.
func fixed3(m metrics.Mean) string {
	if !m.Defined {
		return undefined
	}
	return fmt3(m.Value)
}

// withCI formats a mean with 3 decimals followed by its interval,
// "0.512 [0.401, 0.613]"; the interval is left out when undefined. pools
// decides the mark (ciPools): an interval over fewer than FewPools is
// "0.512 [0.401, 0.613]†".
func withCI(m metrics.Mean, ci metrics.Interval, pools int) string {
	if !m.Defined || !ci.Defined {
		return fixed3(m)
	}
	return fmt3(m.Value) + " " + ciText(ci, pools)
}

// ciText formats an interval as "[lo, hi]" with 3 decimals, followed by
// FewPoolsMark when pools (ciPools) is below FewPools; "—" when undefined.
func ciText(ci metrics.Interval, pools int) string {
	if !ci.Defined {
		return undefined
	}
	text := "[" + fmt3(ci.Lo) + ", " + fmt3(ci.Hi) + "]"
	if pools < FewPools {
		text += FewPoolsMark
	}
	return text
}

// ciPools is the number of pools that decides whether an interval is
// marked (ciText): for a mean over one dataset's pools, n, their number;
// for a mean over datasets, whose stratified interval
// (metrics.StratifiedMeanCI) resamples each dataset of two or more pools
// over its own pools alone, the fewest pools of a dataset it resamples —
// 3 datasets of 2 pools are n = 6 pools but each resampled over 2, and
// the interval under-covers as one over 2 pools does — or 1 when it
// resamples none (every dataset one pool: the interval is a point).
// strata are the datasets' values, nil for a mean over one dataset; a
// dataset of one pool enters every resample as it is and the tables name
// it (singlePoolText).
func ciPools(n int, strata [][]float64) int {
	if strata == nil {
		return n
	}
	fewest := 0
	for _, s := range strata {
		if len(s) >= 2 && (fewest == 0 || len(s) < fewest) {
			fewest = len(s)
		}
	}
	return max(fewest, 1)
}

// etaCIPools, informativeCIPools, regretCIPools and lossCIPools are the
// ciPools of the cell's intervals of η (EtaCI and EtaNoiseCI, over the
// same pools), informative η, R̃ and a loss of the decomposition.
func (c *Cell) etaCIPools() int { return ciPools(c.Eta.N, c.perPool.etaStrata) }

func (c *Cell) informativeCIPools() int {
	return ciPools(c.Informative.N, c.perPool.informativeStrata)
}

func (c *Cell) regretCIPools() int { return ciPools(c.Regret.N, c.perPool.regretStrata) }

func (c *Cell) lossCIPools(m planMetric) int {
	return ciPools(c.planMeans()[m].Mean.N, c.perPool.planStrata[m])
}

// lossText is a loss of the cell's decomposition with its interval,
// "0.120 [0.050, 0.200]".
func (c *Cell) lossText(m planMetric) string {
	pm := c.planMeans()[m]
	return withCI(pm.Mean, pm.CI, c.lossCIPools(m))
}

// FewPools is the number of pools below which the tables mark a bootstrap
// interval with FewPoolsMark (SPEC §5 defines it from 2 pools); for a mean
// over datasets, the pools of the smallest dataset it resamples (ciPools). A
// percentile bootstrap interval over so few pools under-covers badly: over
// 2 pools every resample mean lies between the two values and a quarter of
// the resamples sit on each, so the interval is exactly [min, max] of the
// pools, a range that holds the true mean about half the time; over 3 it
// is still [min, max] at the default 95% (an all-min resample has
// probability 1/27 > 2.5%). Simulated with metrics.Bootstrap on normal
// values, the default 95% interval covers the mean 52% of the time over 2
// pools, 75% over 3, 81% over 4, 84% over 5 and 90% over 10: below 5 the
// interval is the range of the pools more than an interval; from 5 on it
// is the usual, if still optimistic, small-sample interval. The numbers
// are kept as SPEC §5 defines them; the mark and noteFewPools tell the
// reader how to read them, and the figures' captions say it of their
// whiskers (package figures). This constant is the only place the
// threshold is set.
const FewPools = 5

// FewPoolsMark follows an interval over fewer than FewPools pools.
const FewPoolsMark = "†"

// FewPoolsCaveat is how to read an interval over fewer than FewPools
// pools: the tables' note (noteFewPools) and the figures' captions say it
// in these words.
const FewPoolsCaveat = "a percentile bootstrap interval over so few pools under-covers (over 2 pools it is exactly the range [min, max] of their two values), so read it as the range of the pools, not as a confidence interval at its nominal level"

// noteFewPools is the note of every table with an interval marked
// FewPoolsMark (withFewPoolsNote).
var noteFewPools = fmt.Sprintf("%s = fewer than %d pools (for a mean over datasets: in one of the datasets it resamples): %s.", FewPoolsMark, FewPools, FewPoolsCaveat)

// withFewPoolsNote adds noteFewPools to t's notes when one of its cells
// holds an interval marked FewPoolsMark.
func withFewPoolsNote(t Table) Table {
	for _, row := range t.Rows {
		for _, cell := range row {
			if strings.Contains(cell, "]"+FewPoolsMark) {
				t.Notes = append(t.Notes, noteFewPools)
				return t
			}
		}
	}
	return t
}

// ciBounds formats an interval's bounds at full precision for CSV, two
// empty fields when undefined.
func ciBounds(ci metrics.Interval) []string {
	if !ci.Defined {
		return []string{"", ""}
	}
	return []string{full(ci.Lo), full(ci.Hi)}
}

// fmt3 formats x with 3 decimals, without a negative zero.
func fmt3(x float64) string {
	s := strconv.FormatFloat(x, 'f', 3, 64)
	if s == "-0.000" {
		return "0.000"
	}
	return s
}

// full formats x at full (round-trip) precision, for CSV.
func full(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// fullMean formats a defined mean at full precision, and an undefined one
// as the empty string (CSV).
func fullMean(m metrics.Mean) string {
	if !m.Defined {
		return ""
	}
	return full(m.Value)
}

// alphaText formats α as its shortest decimal ("0.5", "1").
func alphaText(a float64) string { return strconv.FormatFloat(a, 'f', -1, 64) }

// datasetPhrase names a dataset in a table title.
func datasetPhrase(d string) string {
	if d == AllDatasets {
		return "mean over datasets"
	}
	return "dataset " + d
}

// datasetLabel is how tables name a dataset.
func datasetLabel(d string) string {
	if d == AllDatasets {
		return "mean over datasets"
	}
	return d
}

// reasonsText lists exclusion counts as "reason:count" joined by sep.
func reasonsText(rcs []metrics.ReasonCount, sep string) string {
	parts := make([]string, len(rcs))
	for i, rc := range rcs {
		parts[i] = fmt.Sprintf("%s:%d", rc.Reason, rc.Count)
	}
	return strings.Join(parts, sep)
}

// excludedCount is the number of pools rcs counts.
func excludedCount(rcs []metrics.ReasonCount) int {
	var n int
	for _, rc := range rcs {
		n += rc.Count
	}
	return n
}

// excludedText names the pools left out of a mean, by reason: "2
// excluded: error", "3 excluded: error:2, unparseable:1"; "" when none.
func excludedText(rcs []metrics.ReasonCount) string {
	switch k := excludedCount(rcs); {
	case k == 0:
		return ""
	case len(rcs) == 1:
		return fmt.Sprintf("%d excluded: %s", k, rcs[0].Reason)
	default:
		return fmt.Sprintf("%d excluded: %s", k, reasonsText(rcs, ", "))
	}
}

// poolsOfText says how many pools a mean over n pools averages when
// others were left out of it (rcs, by reason): "n=1 of 3; 2 excluded:
// error"; "" when none was, the mean then standing for every pool.
func poolsOfText(n int, rcs []metrics.ReasonCount) string {
	k := excludedCount(rcs)
	if k == 0 {
		return ""
	}
	return fmt.Sprintf("n=%d of %d; %s", n, n+k, excludedText(rcs))
}

// singlePoolDetail says what is left of a SinglePoolDataset: "1 of 3
// pools with a value; 2 excluded: error", or "" when its single pool is
// all it had.
func singlePoolDetail(s SinglePoolDataset) string {
	k := excludedCount(s.Excluded)
	if k == 0 {
		return ""
	}
	return fmt.Sprintf("1 of %d pools with a value; %s", 1+k, excludedText(s.Excluded))
}

// singlePoolPhrase names one dataset that a solver's means over datasets
// take with a single pool with a value: text is the dataset alone when
// that pool is all it had (plain), else the dataset with what is left of
// it.
type singlePoolPhrase struct {
	text  string
	plain bool
}

// singlePoolPhrases names the datasets that a solver's η_U and η_E means
// over datasets (u, e: their cells' SinglePool) each take with a single
// pool with a value, in dataset order: the dataset alone when that pool
// is all it had in both regimes ("aime"), else with what is left of it,
// "aime (1 of 3 pools with a value; 2 excluded: error)", each regime's
// when they differ: "aime (U: 1 of 3 pools with a value; 2 excluded:
// error / E: its only pool)", a regime's alone when only it has a single
// pool left by exclusions ("aime (E: 1 of 2 pools with a value; 1
// excluded: missing)"). This is the one wording of single-pool
// datasets: the summary's notes and the tables' say it alike.
func singlePoolPhrases(u, e []SinglePoolDataset) []singlePoolPhrase {
	byDataset := map[string][2]*SinglePoolDataset{}
	var datasets []string
	for i, list := range [][]SinglePoolDataset{u, e} {
		for j := range list {
			s := &list[j]
			pair, seen := byDataset[s.Dataset]
			if !seen {
				datasets = append(datasets, s.Dataset)
			}
			pair[i] = s
			byDataset[s.Dataset] = pair
		}
	}
	slices.Sort(datasets)
	var out []singlePoolPhrase
	for _, d := range datasets {
		pair := byDataset[d]
		var detail string
		switch {
		case pair[0] != nil && pair[1] != nil && singlePoolDetail(*pair[0]) == singlePoolDetail(*pair[1]):
			detail = singlePoolDetail(*pair[0])
		case pair[0] == nil && singlePoolDetail(*pair[1]) == "", pair[1] == nil && singlePoolDetail(*pair[0]) == "":
			// A single pool in all under the one regime that has a single pool.
		default:
			var parts []string
			for i, s := range pair {
				if s == nil {
					continue
				}
				text := singlePoolDetail(*s)
				if text == "" {
					text = "its only pool"
				}
				parts = append(parts, []string{"U", "E"}[i]+": "+text)
			}
			detail = strings.Join(parts, " / ")
		}
		if detail == "" {
			out = append(out, singlePoolPhrase{text: d, plain: true})
		} else {
			out = append(out, singlePoolPhrase{text: d + " (" + detail + ")"})
		}
	}
	return out
}

// singlePoolTexts joins the texts of phrases with ", ".
func singlePoolTexts(phrases []singlePoolPhrase) string {
	texts := make([]string, len(phrases))
	for i, p := range phrases {
		texts[i] = p.text
	}
	return strings.Join(texts, ", ")
}

// pairCount shows a U count and an E count: once when equal, else "u/e".
func pairCount(u, e int) string {
	if u == e {
		return strconv.Itoa(u)
	}
	return fmt.Sprintf("%d/%d", u, e)
}

// reasonOracleZero is the pseudo-reason under which regret tables count the
// pools left out of the R̃ mean because V_oracle = 0.
const reasonOracleZero metrics.Reason = "oracle=0"

// exclusions returns a cell's exclusion counts, with the V_oracle = 0 pools
// added when regret is true.
func exclusions(c Cell, regret bool) []metrics.ReasonCount {
	rcs := c.Excluded
	if regret && c.RegretUndefined > 0 {
		rcs = mergeReasons(append([]metrics.ReasonCount{{Reason: reasonOracleZero, Count: c.RegretUndefined}}, rcs...))
	}
	return rcs
}

// pairReasons shows the U and E exclusion counts of one pair of cells as
// "reason:count, …", a count being "u/e" when the regimes differ; "" when
// nothing was excluded.
func pairReasons(u, e []metrics.ReasonCount) string {
	counts := map[metrics.Reason][2]int{}
	var reasons []metrics.Reason
	for i, rcs := range [][]metrics.ReasonCount{u, e} {
		for _, rc := range rcs {
			c, seen := counts[rc.Reason]
			if !seen {
				reasons = append(reasons, rc.Reason)
			}
			c[i] += rc.Count
			counts[rc.Reason] = c
		}
	}
	slices.Sort(reasons)
	parts := make([]string, len(reasons))
	for i, r := range reasons {
		c := counts[r]
		parts[i] = fmt.Sprintf("%s:%s", r, pairCount(c[0], c[1]))
	}
	return strings.Join(parts, ", ")
}

// FormatMean formats a mean as the report's tables do: 3 decimals, "—"
// when undefined. Figures and pages use it so every number reads the same.
func FormatMean(m metrics.Mean) string { return fixed3(m) }

// FormatNumber formats x with 3 decimals, without a negative zero.
func FormatNumber(x float64) string { return fmt3(x) }

// FormatAlpha formats α or an injection ratio as its shortest decimal
// ("0.5", "1").
func FormatAlpha(a float64) string { return alphaText(a) }

// FormatCount writes n with commas between groups of three digits.
func FormatCount(n int) string {
	if n < 0 {
		return "-" + FormatCount(-n)
	}
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}
