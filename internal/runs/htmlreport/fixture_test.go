package htmlreport

import (
	"testing"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/runs/budgetaware"
	"github.com/triage-eval/triage/internal/runs/figures"
	"github.com/triage-eval/triage/internal/runs/report"
)

// scored stores r's η and R̃ as a run would.
func scored(r report.ScoreRecord) report.ScoreRecord {
	s := metrics.Score(r.Value, r.Oracle, r.Random)
	r.Eta, r.Regret, r.RegretDefined = &s.Eta, s.Regret, s.RegretDefined
	return r
}

// planned returns the U and E records of one plan with V_S = vs, V_U = vu
// and V_E = ve, carrying its regret decomposition and diagnostics as a run
// stores them.
func planned(model, mode, dataset string, pool int, alpha float64, variant, strategy string, oracle, random, vs, vu, ve float64) []report.ScoreRecord {
	f := func(x float64) *float64 { return &x }
	var out []report.ScoreRecord
	for _, reg := range []struct {
		name string
		v    float64
	}{{"U", vu}, {"E", ve}} {
		r := scored(report.ScoreRecord{
			Model: model, Mode: mode, Dataset: dataset, Pool: pool, Alpha: alpha, Variant: variant, Strategy: strategy,
			Regime: reg.name, Value: reg.v, Oracle: oracle, Random: random, PoolSize: 20,
			Precision: f(0.75), Recall: f(0.5), CostForecast: f(-0.25), UnderAllocation: f(0.25),
		})
		if l, ok := metrics.Decompose(oracle, vs, vu, ve); ok {
			r.PlannedValue, r.Selection, r.Order, r.Enforcement = f(vs), f(l.Selection), f(l.Order), f(l.Enforcement)
		}
		out = append(out, r)
	}
	return out
}

// fixtureInput is a small hand-made run with every part of the page:
// three solvers, datasets aime and gpqa at α ∈ {0.5, 1} (strategy llm,
// variant default, and the partial-information references population,
// self_feasibility and self_cost, three pools, each plan with its regret
// decomposition; beta-70b's enforced plans on gpqa score above its
// advisory ones), an unsolvable-injection experiment on
// gpqa, base accuracy, a budget-aware re-solve of two solvers, a note, and
// the figures drawn from it (PNGs at a low resolution: the page uses the
// SVGs). The report's headline α is the default.
func fixtureInput(t *testing.T) Input {
	t.Helper()
	return fixtureInputAt(t, 0)
}

// fixtureInputAt is fixtureInput with the report's headline α asked for
// (report.Options.Alpha), as `triage report --alpha` asks.
func fixtureInputAt(t *testing.T, alpha float64) Input {
	t.Helper()
	solvers := []struct{ model, mode string }{{"alpha-7b", "standard"}, {"alpha-7b", "extended"}, {"beta-70b", "standard"}}
	var recs []report.ScoreRecord
	var acc []report.Accuracy
	for si, s := range solvers {
		for di, d := range []string{"aime", "gpqa"} {
			acc = append(acc, report.Accuracy{Model: s.model, Mode: s.mode, Dataset: d, Gradeable: 40, Correct: 6 + 5*si + 7*di})
			for ai, a := range []float64{0.5, 1} {
				for pool := range 3 {
					oracle := float64(5 + pool)
					random := oracle * 0.5
					if a == 1 {
						random = oracle
					}
					seed := 3*si + 5*di + 7*ai + 11*pool
					vu := min(oracle, random+float64(seed%4)-1)
					ve := max(0, vu-float64(1+seed%3))
					if si == 2 && d == "gpqa" {
						ve = min(oracle, vu+1) // enforcement helps: a negative loss
					}
					recs = append(recs, planned(s.model, s.mode, d, pool, a, "default", "llm", oracle, random, min(oracle, vu+float64(seed%2)), vu, ve)...)
					for ri, strategy := range []string{"population", "self_feasibility", "self_cost"} {
						rv := min(oracle, random+(0.2+0.25*float64(ri)+0.05*float64(seed%3))*(oracle-random))
						recs = append(recs, planned(s.model, s.mode, d, pool, a, "-", strategy, oracle, random, rv, rv, max(0, rv-1))...)
					}
				}
			}
		}
	}
	for mi, mode := range []string{"standard", "extended"} {
		for _, ratio := range []float64{0, 0.5, 1} {
			for pool := range 2 {
				injected := int(ratio * 10)
				oracle := float64(max(0, 6-injected/2))
				d := 0.8 - 0.3*float64(mi) - 0.1*ratio - 0.05*float64(pool)
				w := 0.1 + 0.3*float64(mi)*ratio + 0.02*float64(pool)
				for _, regime := range []string{"U", "E"} {
					r := report.ScoreRecord{
						Model: "alpha-7b", Mode: mode, Dataset: "gpqa", Pool: pool, Alpha: 0.5, Variant: "default", Strategy: "llm",
						Regime: regime, Value: max(0, oracle-1), Oracle: oracle, Random: oracle / 2, PoolSize: 10,
						Source: "gpqa-abstain", Ratio: &ratio, Injected: injected, Waste: &w,
					}
					if injected > 0 {
						r.Detection = &d
					}
					recs = append(recs, scored(r))
				}
			}
		}
	}
	rep := report.BuildWith(recs, acc, report.Options{Alpha: alpha})
	ba := []budgetaware.Row{
		{Model: "alpha-7b", Mode: "standard", Dataset: "aime", N: 20, AccBaseline: 0.3, AccBudgetAware: 0.35, Compliance: 0.4, Finished: 18, ComplianceFinished: 0.389, KeptCorrect: 5, LostCorrect: 1, NewlyCorrect: 2, StillWrong: 12, Truncated: 2},
		{Model: "alpha-7b", Mode: "standard", Dataset: "gpqa", N: 20, AccBaseline: 0.5, AccBudgetAware: 0.55, Compliance: 0.25, Finished: 20, ComplianceFinished: 0.25, KeptCorrect: 9, LostCorrect: 1, NewlyCorrect: 2, StillWrong: 8},
		{Model: "alpha-7b", Mode: "standard", Dataset: budgetaware.AllDatasets, N: 40, AccBaseline: 0.4, AccBudgetAware: 0.45, Compliance: 0.325, Finished: 38, ComplianceFinished: 0.316, KeptCorrect: 14, LostCorrect: 2, NewlyCorrect: 4, StillWrong: 20, Truncated: 2},
		{Model: "gamma-1b", Mode: "standard", Dataset: "aime", N: 10, AccBaseline: 0.1, AccBudgetAware: 0.2, Compliance: 0.6, Finished: 0, KeptCorrect: 1, NewlyCorrect: 1, StillWrong: 8, Truncated: 10},
		{Model: "gamma-1b", Mode: "standard", Dataset: budgetaware.AllDatasets, N: 10, AccBaseline: 0.1, AccBudgetAware: 0.2, Compliance: 0.6, Finished: 0, KeptCorrect: 1, NewlyCorrect: 1, StillWrong: 8, Truncated: 10},
	}
	figs, err := figures.Draw(rep, ba, figures.Options{DPI: 18})
	if err != nil {
		t.Fatalf("figures.Draw: %v", err)
	}
	return Input{
		Title: "TRIAGE report — fixture", Report: rep, BudgetAware: ba, Figures: figs,
		Notes: []string{"SYNTHETIC sample: invented solvers and ground truth, not real model results."},
	}
}
