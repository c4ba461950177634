package report

import (
	"encoding/json"
	"io"
	"math"

	"github.com/triage-eval/triage/internal/platform/version"
	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// JSON writes the whole report as one indented JSON object:
//
//	{"version": {...}, "builds": [...], "bootstrap": {...}, "cells": [...],
//	 "injection": [...], "accuracy": [...], "sensitivity": {"ranges": [...], "ranks": [...]}}
//
// in the orders of Cells, Accuracy and Sensitivity. Numbers are at full
// precision; an undefined mean (or τ_b, or range) is null, next to its count,
// and random_se_max is null when no pool was averaged. Cell exclusions are
// an object {"reason": count} (empty when none); "degenerate" is {"d1": k,
// "d2": m}, the degenerate pools of the η mean, beside eta_informative.
// The regret decomposition and the plan diagnostics (selection_loss,
// order_loss, enforcement_loss, precision, recall, cost_forecast,
// under_allocation) are each {"mean", "n", "ci"} ("ci" for the losses
// alone), beside undecomposed and decomposition_mismatch.
// version is the build that wrote the report (version.Info: module,
// version, revision, modified, commit_time, go, and the protocol and SPEC
// revision of SPEC §10: protocol, spec_revision) and builds the builds that
// touched the run, one line each; both are absent when unknown.
// With a noise part (SPEC §9) each cell adds eta_noise_ci ([lo, hi] or
// null) and noise_unmatched, and "noise" gives k, draws, random_orders,
// random_seed and the per-(solver, dataset) means (NoiseCSV's columns);
// without one none of these appear.
func (r Report) JSON(w io.Writer) error {
	b := r.Bootstrap
	out := jsonReport{
		Bootstrap: jsonBootstrap{Method: "percentile", Resamples: b.Resamples, Level: b.Level(), Seed: b.Seed},
		Cells:     make([]jsonCell, len(r.Cells)),
		Injection: make([]jsonInjectionCell, len(r.Injection)),
		Accuracy:  make([]jsonAccuracy, len(r.Accuracy)),
	}
	if r.Version != (version.Info{}) {
		out.Version = &r.Version
	}
	out.Builds = r.Builds
	out.Noise = toJSONNoise(r.Noise)
	for i, c := range r.Cells {
		out.Cells[i] = r.toJSONCell(c)
	}
	for i, c := range r.Injection {
		out.Injection[i] = jsonInjectionCell{
			jsonCell: r.toJSONCell(c), Source: c.Source, Ratio: num(c.Ratio, true),
			Detection: mean(c.Detection), DetectionN: c.Detection.N, Waste: mean(c.Waste), WasteN: c.Waste.N,
			DetectionCI: interval(c.DetectionCI), WasteCI: interval(c.WasteCI),
		}
	}
	for i, a := range r.Accuracy {
		out.Accuracy[i] = jsonAccuracy{a.Model, a.Mode, a.Dataset, a.Correct, a.Gradeable, mean(a.Accuracy), a.Unsolvable, a.LuckyGuesses, a.PublicTestsOnly}
	}
	sens := r.Sensitivity()
	out.Sensitivity.Ranges = make([]jsonRange, len(sens.Ranges))
	for i, vr := range sens.Ranges {
		jr := jsonRange{
			Strategy: vr.Strategy, Regime: vr.Regime, Dataset: vr.Dataset, Model: vr.Model, Mode: vr.Mode,
			Alpha: num(vr.Alpha, true), Compared: vr.Compared, Range: num(vr.Range, vr.Defined),
		}
		for _, v := range vr.Variants {
			jr.Variants = append(jr.Variants, jsonVariant{v.Variant, mean(v.Eta), v.Eta.N, jsonDegenerate{v.Degenerate.NoValue, v.Degenerate.Collapse}})
		}
		out.Sensitivity.Ranges[i] = jr
	}
	out.Sensitivity.Ranks = make([]jsonRank, len(sens.Ranks))
	for i, ra := range sens.Ranks {
		out.Sensitivity.Ranks[i] = jsonRank{
			Strategy: ra.Strategy, Regime: ra.Regime, Dataset: ra.Dataset, Alpha: num(ra.Alpha, true),
			A: ra.A, B: ra.B, Solvers: ra.Solvers, Tau: num(ra.Tau, ra.Defined), Undefined: ra.Undefined,
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// toJSONCell is the JSON form of a cell's common numbers.
func (r Report) toJSONCell(c Cell) jsonCell {
	excl := map[string]int{}
	for _, rc := range c.Excluded {
		excl[string(rc.Reason)] += rc.Count
	}
	var unmatched *int
	if r.Noise != nil {
		unmatched = &c.NoiseUnmatched
	}
	return jsonCell{
		EtaNoiseCI: noiseCI(r, c), NoiseUnmatched: unmatched,
		Model: c.Model, Mode: c.Mode, Dataset: c.Dataset, Alpha: num(c.Alpha, true),
		Variant: c.Variant, Strategy: c.Strategy, Regime: c.Regime,
		Pools: c.Pools, Eta: mean(c.Eta), EtaN: c.Eta.N, Regret: mean(c.Regret), RegretN: c.Regret.N,
		RegretUndefined: c.RegretUndefined, Excluded: excl,
		BaseAccuracy: mean(c.BaseAccuracy), Gradeable: c.BaseAccuracy.N, StoredMismatch: c.StoredMismatch,
		ShortPools: c.ShortPools, Dropped: c.Dropped, RandomSEMax: mean(c.RandomSEMax),
		EtaCI: interval(c.EtaCI), RegretCI: interval(c.RegretCI),
		Degenerate:     jsonDegenerate{D1: c.Degenerate.NoValue, D2: c.Degenerate.Collapse},
		EtaInformative: mean(c.Informative), EtaInformativeN: c.Informative.N, EtaInformativeCI: interval(c.InformativeCI),
		SelectionLoss: jsonMean(c.Selection), OrderLoss: jsonMean(c.Order), EnforcementLoss: jsonMean(c.Enforcement),
		Undecomposed: c.Undecomposed, DecompositionMismatch: c.DecompositionMismatch,
		Precision: jsonDiagnostic(c.Precision), Recall: jsonDiagnostic(c.Recall), CostForecast: jsonDiagnostic(c.CostForecast), UnderAllocation: jsonDiagnostic(c.UnderAllocation),
	}
}

// jsonMean is the JSON form of a PoolMean: {"mean", "n", "ci"}, mean and ci
// null when undefined.
func jsonMean(m PoolMean) jsonPoolMean {
	return jsonPoolMean{Mean: mean(m.Mean), N: m.Mean.N, CI: interval(m.CI)}
}

// jsonDiagnostic is the JSON form of a plan diagnostic's PoolMean:
// {"mean", "n"} (it has no interval).
func jsonDiagnostic(m PoolMean) jsonPoolMean {
	return jsonPoolMean{Mean: mean(m.Mean), N: m.Mean.N, omitCI: true}
}

// jsonPoolMean is a PoolMean in cells.json.
type jsonPoolMean struct {
	Mean   *float64
	N      int
	CI     []float64
	omitCI bool
}

// MarshalJSON writes {"mean", "n", "ci"}, without "ci" for a diagnostic.
func (m jsonPoolMean) MarshalJSON() ([]byte, error) {
	if m.omitCI {
		return json.Marshal(struct {
			Mean *float64 `json:"mean"`
			N    int      `json:"n"`
		}{m.Mean, m.N})
	}
	return json.Marshal(struct {
		Mean *float64  `json:"mean"`
		N    int       `json:"n"`
		CI   []float64 `json:"ci"`
	}{m.Mean, m.N, m.CI})
}

// interval is [lo, hi], or nil (JSON null) when undefined.
func interval(ci metrics.Interval) []float64 {
	if !ci.Defined {
		return nil
	}
	return []float64{ci.Lo, ci.Hi}
}

// num is x when defined and finite, else nil (JSON null).
func num(x float64, defined bool) *float64 {
	if !defined || math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

func mean(m metrics.Mean) *float64 { return num(m.Value, m.Defined) }

type jsonReport struct {
	Version     *version.Info       `json:"version,omitempty"`
	Builds      []string            `json:"builds,omitempty"`
	Bootstrap   jsonBootstrap       `json:"bootstrap"`
	Cells       []jsonCell          `json:"cells"`
	Injection   []jsonInjectionCell `json:"injection"`
	Accuracy    []jsonAccuracy      `json:"accuracy"`
	Sensitivity struct {
		Ranges []jsonRange `json:"ranges"`
		Ranks  []jsonRank  `json:"ranks"`
	} `json:"sensitivity"`
	// Noise is the measurement-noise part (SPEC §9), absent without one.
	Noise *jsonNoise `json:"noise,omitempty"`
}

type jsonCell struct {
	Model           string         `json:"model"`
	Mode            string         `json:"mode"`
	Dataset         string         `json:"dataset"`
	Alpha           *float64       `json:"alpha"`
	Variant         vocab.Variant  `json:"variant"`
	Strategy        vocab.Strategy `json:"strategy"`
	Regime          vocab.Regime   `json:"regime"`
	Pools           int            `json:"pools"`
	Eta             *float64       `json:"eta"`
	EtaN            int            `json:"eta_n"`
	Regret          *float64       `json:"regret"`
	RegretN         int            `json:"regret_n"`
	RegretUndefined int            `json:"regret_undefined"`
	Excluded        map[string]int `json:"excluded"`
	BaseAccuracy    *float64       `json:"base_accuracy"`
	Gradeable       int            `json:"gradeable"`
	StoredMismatch  int            `json:"stored_mismatch"`
	ShortPools      int            `json:"short_pools"`
	Dropped         int            `json:"dropped"`
	RandomSEMax     *float64       `json:"random_se_max"`
	EtaCI           []float64      `json:"eta_ci"`
	RegretCI        []float64      `json:"regret_ci"`
	// EtaNoiseCI is the noise-aware interval (SPEC §9) and NoiseUnmatched
	// the records without one; both absent without a noise part.
	EtaNoiseCI     *[]float64 `json:"eta_noise_ci,omitempty"`
	NoiseUnmatched *int       `json:"noise_unmatched,omitempty"`
	// Degenerate counts the pools of eta_n that are D1 and D2 (SPEC §5);
	// EtaInformative is the mean η over the others.
	Degenerate       jsonDegenerate `json:"degenerate"`
	EtaInformative   *float64       `json:"eta_informative"`
	EtaInformativeN  int            `json:"eta_informative_n"`
	EtaInformativeCI []float64      `json:"eta_informative_ci"`
	// SelectionLoss, OrderLoss and EnforcementLoss are the regret
	// decomposition (SPEC §5) over the pools of regret_n that carry it;
	// Undecomposed counts those that do not, DecompositionMismatch the
	// records whose losses break their identity (Cell.Undecomposed,
	// Cell.DecompositionMismatch); Precision, Recall, CostForecast and
	// UnderAllocation are the plan diagnostics.
	SelectionLoss         jsonPoolMean `json:"selection_loss"`
	OrderLoss             jsonPoolMean `json:"order_loss"`
	EnforcementLoss       jsonPoolMean `json:"enforcement_loss"`
	Undecomposed          int          `json:"undecomposed"`
	DecompositionMismatch int          `json:"decomposition_mismatch"`
	Precision             jsonPoolMean `json:"precision"`
	Recall                jsonPoolMean `json:"recall"`
	CostForecast          jsonPoolMean `json:"cost_forecast"`
	UnderAllocation       jsonPoolMean `json:"under_allocation"`
}

// jsonDegenerate counts degenerate pools by kind.
type jsonDegenerate struct {
	D1 int `json:"d1"`
	D2 int `json:"d2"`
}

// jsonBootstrap records how the intervals were computed.
type jsonBootstrap struct {
	Method    string  `json:"method"`
	Resamples int     `json:"resamples"`
	Level     float64 `json:"level"`
	Seed      uint64  `json:"seed"`
}

// jsonInjectionCell is an injection cell: a cell's numbers, its source and
// ratio, and the mean detection and waste.
type jsonInjectionCell struct {
	jsonCell
	Source      string    `json:"source"`
	Ratio       *float64  `json:"ratio"`
	Detection   *float64  `json:"detection"`
	DetectionN  int       `json:"detection_n"`
	Waste       *float64  `json:"waste"`
	WasteN      int       `json:"waste_n"`
	DetectionCI []float64 `json:"detection_ci"`
	WasteCI     []float64 `json:"waste_ci"`
}

type jsonAccuracy struct {
	Model     string   `json:"model"`
	Mode      string   `json:"mode"`
	Dataset   string   `json:"dataset"`
	Correct   int      `json:"correct"`
	Gradeable int      `json:"gradeable"`
	Accuracy  *float64 `json:"accuracy"`
	// Unsolvable, LuckyGuesses and PublicTestsOnly: see Accuracy.
	Unsolvable      int `json:"unsolvable"`
	LuckyGuesses    int `json:"lucky_guesses"`
	PublicTestsOnly int `json:"public_tests_only"`
}

type jsonRange struct {
	Strategy vocab.Strategy `json:"strategy"`
	Regime   vocab.Regime   `json:"regime"`
	Dataset  string         `json:"dataset"`
	Model    string         `json:"model"`
	Mode     string         `json:"mode"`
	Alpha    *float64       `json:"alpha"`
	Variants []jsonVariant  `json:"variants"`
	Compared int            `json:"compared"`
	Range    *float64       `json:"range"`
}

type jsonVariant struct {
	Variant    vocab.Variant  `json:"variant"`
	Eta        *float64       `json:"eta"`
	EtaN       int            `json:"eta_n"`
	Degenerate jsonDegenerate `json:"degenerate"`
}

type jsonRank struct {
	Strategy  vocab.Strategy `json:"strategy"`
	Regime    vocab.Regime   `json:"regime"`
	Dataset   string         `json:"dataset"`
	Alpha     *float64       `json:"alpha"`
	A         vocab.Variant  `json:"a"`
	B         vocab.Variant  `json:"b"`
	Solvers   int            `json:"solvers"`
	Tau       *float64       `json:"tau"`
	Undefined string         `json:"undefined,omitempty"`
}
