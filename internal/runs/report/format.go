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
// "0.512 [0.401, 0.613]"; the interval is left out when undefined.
func withCI(m metrics.Mean, ci metrics.Interval) string {
	if !m.Defined || !ci.Defined {
		return fixed3(m)
	}
	return fmt3(m.Value) + " [" + fmt3(ci.Lo) + ", " + fmt3(ci.Hi) + "]"
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
