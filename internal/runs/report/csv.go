package report

import (
	"encoding/csv"
	"io"
	"strconv"

	"github.com/triage-eval/triage/internal/protocol/metrics"
)

// CSV writes one row per cell, in Cells order, with a header row. Numbers
// are at full precision; an undefined mean is an empty field. Columns:
//
//	model, mode, dataset, alpha, variant, strategy, regime,
//	pools, eta, eta_n, regret, regret_n, regret_undefined,
//	excluded_n, excluded ("reason:count;…" sorted by reason),
//	base_accuracy, gradeable, stored_mismatch,
//	short_pools, dropped, random_se_max, eta_lo, eta_hi, regret_lo, regret_hi,
//	degenerate_d1, degenerate_d2,
//	eta_informative, eta_informative_n, eta_informative_lo, eta_informative_hi,
//	selection_loss, selection_loss_n, selection_loss_lo, selection_loss_hi,
//	order_loss, …, enforcement_loss, …, precision, precision_n, recall,
//	recall_n, cost_forecast, cost_forecast_n, under_allocation,
//	under_allocation_n,
//	undecomposed, decomposition_mismatch
//
// (the _lo/_hi columns are the 95% bootstrap intervals, empty when
// undefined; random_se_max is empty when no pool was averaged, 0 when every
// random reference averaged is exact; degenerate_d1 and degenerate_d2 count
// the pools of eta_n that are D1 and D2, eta_informative is the mean η over
// the others; the losses and the diagnostics are Cell.Selection …
// Cell.UnderAllocation, each with its n, the pools averaged, the losses
// with their intervals;
// undecomposed counts the pools of regret_n without a decomposition and
// decomposition_mismatch the records whose losses break their identity,
// Cell.Undecomposed and Cell.DecompositionMismatch). With a noise part
// (Report.Noise, SPEC §9) three columns follow: eta_noise_lo, eta_noise_hi
// (Cell.EtaNoiseCI) and noise_unmatched; without one they are absent.
func (r Report) CSV(w io.Writer) error {
	rows := [][]string{{
		"model", "mode", "dataset", "alpha", "variant", "strategy", "regime",
		"pools", "eta", "eta_n", "regret", "regret_n", "regret_undefined",
		"excluded_n", "excluded", "base_accuracy", "gradeable", "stored_mismatch",
		"short_pools", "dropped", "random_se_max", "eta_lo", "eta_hi", "regret_lo", "regret_hi",
		"degenerate_d1", "degenerate_d2", "eta_informative", "eta_informative_n", "eta_informative_lo", "eta_informative_hi",
	}}
	for m, name := range planMetricNames {
		rows[0] = append(rows[0], name, name+"_n")
		if m < numLosses {
			rows[0] = append(rows[0], name+"_lo", name+"_hi")
		}
	}
	rows[0] = append(rows[0], "undecomposed", "decomposition_mismatch")
	if r.Noise != nil {
		rows[0] = append(rows[0], "eta_noise_lo", "eta_noise_hi", "noise_unmatched")
	}
	for _, c := range r.Cells {
		excluded := 0
		for _, rc := range c.Excluded {
			excluded += rc.Count
		}
		row := []string{
			c.Model, c.Mode, c.Dataset, full(c.Alpha), string(c.Variant), string(c.Strategy), string(c.Regime),
			itoa(c.Pools), fullMean(c.Eta), itoa(c.Eta.N), fullMean(c.Regret), itoa(c.Regret.N), itoa(c.RegretUndefined),
			itoa(excluded), reasonsText(c.Excluded, ";"), fullMean(c.BaseAccuracy), itoa(c.BaseAccuracy.N), itoa(c.StoredMismatch),
			itoa(c.ShortPools), itoa(c.Dropped), fullMean(c.RandomSEMax),
		}
		row = append(row, ciBounds(c.EtaCI)...)
		row = append(row, ciBounds(c.RegretCI)...)
		row = append(row, degenerateColumns(c)...)
		for i, m := range c.planMeans() {
			row = append(row, fullMean(m.Mean), itoa(m.Mean.N))
			if i < numLosses {
				row = append(row, ciBounds(m.CI)...)
			}
		}
		row = append(row, itoa(c.Undecomposed), itoa(c.DecompositionMismatch))
		if r.Noise != nil {
			row = append(append(row, ciBounds(c.EtaNoiseCI)...), itoa(c.NoiseUnmatched))
		}
		rows = append(rows, row)
	}
	return writeCSV(w, rows)
}

// degenerateColumns are a cell's degenerate_d1, degenerate_d2,
// eta_informative, eta_informative_n, eta_informative_lo and
// eta_informative_hi fields.
func degenerateColumns(c Cell) []string {
	return append([]string{itoa(c.Degenerate.NoValue), itoa(c.Degenerate.Collapse), fullMean(c.Informative), itoa(c.Informative.N)},
		ciBounds(c.InformativeCI)...)
}

// AccuracyCSV writes the base accuracies: model, mode, dataset, correct,
// gradeable, accuracy (empty when there are no gradeable items), unsolvable,
// lucky_guesses, public_tests_only.
func (r Report) AccuracyCSV(w io.Writer) error {
	rows := [][]string{{"model", "mode", "dataset", "correct", "gradeable", "accuracy", "unsolvable", "lucky_guesses", "public_tests_only"}}
	for _, a := range r.Accuracy {
		rows = append(rows, []string{a.Model, a.Mode, a.Dataset, itoa(a.Correct), itoa(a.Gradeable), fullMean(a.Accuracy), itoa(a.Unsolvable), itoa(a.LuckyGuesses), itoa(a.PublicTestsOnly)})
	}
	return writeCSV(w, rows)
}

// RangesCSV writes Sensitivity().Ranges in long form, one row per (range,
// variant): strategy, regime, dataset ("*" for the macro-average), model,
// mode, alpha, variant, eta, eta_n, compared, range (the range repeats on
// each of its variants' rows; empty when undefined), degenerate_d1,
// degenerate_d2 (the degenerate pools of eta_n, SPEC §5).
func (r Report) RangesCSV(w io.Writer) error {
	rows := [][]string{{"strategy", "regime", "dataset", "model", "mode", "alpha", "variant", "eta", "eta_n", "compared", "range", "degenerate_d1", "degenerate_d2"}}
	for _, vr := range r.Sensitivity().Ranges {
		rng := metrics.Mean{Value: vr.Range, Defined: vr.Defined}
		for _, v := range vr.Variants {
			rows = append(rows, []string{
				string(vr.Strategy), string(vr.Regime), vr.Dataset, vr.Model, vr.Mode, full(vr.Alpha),
				string(v.Variant), fullMean(v.Eta), itoa(v.Eta.N), itoa(vr.Compared), fullMean(rng),
				itoa(v.Degenerate.NoValue), itoa(v.Degenerate.Collapse),
			})
		}
	}
	return writeCSV(w, rows)
}

// RanksCSV writes Sensitivity().Ranks: strategy, regime, dataset, alpha, a,
// b, solvers, tau (empty when undefined), undefined (why).
func (r Report) RanksCSV(w io.Writer) error {
	rows := [][]string{{"strategy", "regime", "dataset", "alpha", "a", "b", "solvers", "tau", "undefined"}}
	for _, ra := range r.Sensitivity().Ranks {
		tau := metrics.Mean{Value: ra.Tau, Defined: ra.Defined}
		rows = append(rows, []string{
			string(ra.Strategy), string(ra.Regime), ra.Dataset, full(ra.Alpha), string(ra.A), string(ra.B), itoa(ra.Solvers), fullMean(tau), ra.Undefined,
		})
	}
	return writeCSV(w, rows)
}

func writeCSV(w io.Writer, rows [][]string) error {
	cw := csv.NewWriter(w)
	if err := cw.WriteAll(rows); err != nil {
		return err
	}
	return cw.Error()
}

func itoa(n int) string { return strconv.Itoa(n) }
