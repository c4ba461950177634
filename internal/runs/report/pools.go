package report

import (
	"io"
	"strconv"
)

// PoolsColumns are the columns of pools.csv, in order; docs/reports.md documents
// each.
var PoolsColumns = []string{
	"model", "mode", "dataset", "source", "ratio", "pool", "alpha", "variant", "strategy", "regime",
	"excluded", "pool_size", "dropped", "short", "budget", "value", "oracle", "random", "random_stderr",
	"eta", "regret", "injected", "detection", "waste", "degenerate",
	"planned_value", "selection_loss", "order_loss", "enforcement_loss",
	"precision", "recall", "cost_forecast", "under_allocation",
}

// PoolsCSV writes one row per score record (pool and cell): every quantity
// a cell's means are computed from, so that any mean, interval or
// comparison of the report can be recomputed from it (η and R̃ recomputed
// from the values, as Build does). degenerate is "D1" (V_oracle = 0) or
// "D2" (V_oracle = V_random > 0) for a degenerate pool (metrics.Classify),
// empty for an informative or excluded one. planned_value (V_S) and the
// three losses are the record's regret decomposition, the next four its
// plan diagnostics (SPEC §5), as stored: the same in a pool's U and E rows,
// empty where undefined, in an excluded row, or in a record stored before
// records carried them. Undefined values are empty fields; numbers are at
// full precision.
func (r Report) PoolsCSV(w io.Writer) error {
	rows := [][]string{PoolsColumns}
	type poolKey struct {
		cell cellKey
		pool int
	}
	seen := map[poolKey]bool{}
	for _, rec := range r.Records {
		k := poolKey{recordKey(rec), rec.Pool}
		ratio := ""
		if rec.Ratio != nil {
			ratio = full(*rec.Ratio)
		}
		excluded := rec.Excluded
		if seen[k] {
			excluded = string(ExcludedDuplicate) // Build keeps a pool's first record
		}
		seen[k] = true
		num := func(x float64) string {
			if excluded != "" {
				return ""
			}
			return full(x)
		}
		// η and R̃ as the means use them: recomputed from V_M, V_oracle and
		// V_random (see Build), not as stored.
		eta, regret, degenerate := "", "", ""
		if excluded == "" {
			s := rescore(rec)
			eta, degenerate = full(s.Eta), string(s.Degenerate)
			if s.RegretDefined {
				regret = full(s.Regret)
			}
		}
		injected := ""
		if rec.Source != "" {
			injected = itoa(rec.Injected)
		}
		row := []string{
			rec.Model, rec.Mode, rec.Dataset, rec.Source, ratio, itoa(rec.Pool), full(rec.Alpha), rec.Variant, rec.Strategy, rec.Regime,
			excluded, itoa(rec.PoolSize), itoa(rec.Dropped), strconv.FormatBool(rec.Short), budgetText(rec.Budget),
			num(rec.Value), num(rec.Oracle), num(rec.Random), num(rec.RandomStderr),
			eta, regret, injected, optional(rec.Detection), optional(rec.Waste), degenerate,
		}
		for _, x := range []*float64{rec.PlannedValue, rec.Selection, rec.Order, rec.Enforcement, rec.Precision, rec.Recall, rec.CostForecast, rec.UnderAllocation} {
			if excluded != "" {
				x = nil
			}
			row = append(row, optional(x))
		}
		rows = append(rows, row)
	}
	return writeCSV(w, rows)
}

// optional is *x at full precision, "" when nil.
func optional(x *float64) string {
	if x == nil {
		return ""
	}
	return full(*x)
}

// budgetText is B, "" when none was computed.
func budgetText(b int64) string {
	if b == 0 {
		return ""
	}
	return strconv.FormatInt(b, 10)
}
