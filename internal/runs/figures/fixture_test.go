package figures

import (
	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/runs/budgetaware"
	"github.com/triage-eval/triage/internal/runs/report"
)

// fixtureSolvers are the hand-made run's solvers.
var fixtureSolvers = []struct{ model, mode string }{
	{"gemini-flash", "standard"}, {"gemini-flash", "extended"},
	{"qwen-32b", "standard"}, {"qwen-32b", "extended"},
}

// fixtureRecords is a hand-made run: four solvers (two models × two
// modes), datasets aime, gpqa and lcb, α ∈ {0.25, 0.5, 0.75, 1}, strategy
// llm with variant "default", regimes U and E, four pools per cell, plus
// an unsolvable-injection experiment. Values follow a fixed pattern; the
// special cases are:
//
//   - (qwen-32b, extended, aime) at α ≤ 0.5 in regime E: every plan scores 0
//     against a random reference close to the oracle, so mean η_E = −3
//     (outside the heat maps' cap, cut in the bar figure);
//   - (gemini-flash, extended, lcb, α = 0.5): every pool unparseable, so
//     both means are undefined ("n/a", "—");
//   - (qwen-32b, standard) has no lcb records at α = 0.75: a blank cell;
//   - (gemini-flash, standard, gpqa, α = 1): a single pool, so no interval;
//   - (gemini-flash, standard, gpqa, α = 0.5): regime E scores above regime
//     U, so the enforcement loss is negative (figure 6 draws it below 0);
//   - (qwen-32b, standard, aime, α = 0.5): pool 0's records carry no regret
//     decomposition, as a record stored before records carried it.
//
// Every other scored record carries its plan's regret decomposition and
// diagnostics (planned), and every solver has the three partial-information
// references (referenceRecords).
func fixtureRecords() []report.ScoreRecord {
	var recs []report.ScoreRecord
	datasets := []string{"aime", "gpqa", "lcb"}
	alphas := []float64{0.25, 0.5, 0.75, 1}
	for si, s := range fixtureSolvers {
		for di, d := range datasets {
			for ai, a := range alphas {
				if s.model == "qwen-32b" && s.mode == "standard" && d == "lcb" && a == 0.75 {
					continue
				}
				pools := 4
				if s.model == "gemini-flash" && s.mode == "standard" && d == "gpqa" && a == 1 {
					pools = 1
				}
				for pool := range pools {
					oracle := float64(6 + pool)
					random := oracle * (0.35 + 0.15*float64(ai))
					if a == 1 {
						random = oracle
					}
					seed := 3*si + 5*di + 7*ai + 11*pool
					vu := max(0, min(oracle, random+float64(seed%5)-1))
					ve := max(0, vu-float64(1+seed%4))
					if s.model == "qwen-32b" && s.mode == "extended" && d == "aime" && a <= 0.5 {
						random, ve = oracle*0.75, 0
					}
					if s.model == "gemini-flash" && s.mode == "standard" && d == "gpqa" && a == 0.5 {
						ve = min(oracle, vu+float64(1+pool%2))
					}
					vs := min(oracle, vu+float64(seed%3))
					for _, reg := range []struct {
						name string
						v    float64
					}{{"U", vu}, {"E", ve}} {
						r := scored(report.ScoreRecord{
							Model: s.model, Mode: s.mode, Dataset: d, Pool: pool, Alpha: a,
							Variant: "default", Strategy: "llm", Regime: reg.name,
							Value: reg.v, Oracle: oracle, Random: random, PoolSize: 30,
						})
						if !(s.model == "qwen-32b" && s.mode == "standard" && d == "aime" && a == 0.5 && pool == 0) {
							r = planned(r, vs, vu, ve, seed)
						}
						if s.model == "gemini-flash" && s.mode == "extended" && d == "lcb" && a == 0.5 {
							r = unparseable(r)
						}
						recs = append(recs, r)
					}
				}
			}
		}
	}
	recs = append(recs, referenceRecords()...)
	return append(recs, injectionRecords()...)
}

// referenceRecords are the partial-information references of the plain
// pools (SPEC §4), each solver's four pools per dataset and α, regimes U
// and E, with their regret decomposition: population lifts η_U a little
// above random, self_cost a little more, self_feasibility the most; the
// gemini-flash solvers' own plans (fixtureRecords) mostly sit between
// population and self_feasibility.
func referenceRecords() []report.ScoreRecord {
	var recs []report.ScoreRecord
	share := map[string]float64{"population": 0.2, "self_cost": 0.4, "self_feasibility": 0.75}
	for si, s := range fixtureSolvers {
		for di, d := range []string{"aime", "gpqa", "lcb"} {
			for ai, a := range []float64{0.25, 0.5, 0.75, 1} {
				for pool := range 4 {
					oracle := float64(6 + pool)
					random := oracle * (0.35 + 0.15*float64(ai))
					if a == 1 {
						random = oracle
					}
					for ri, strategy := range []string{"population", "self_feasibility", "self_cost"} {
						seed := 4*si + 5*di + 7*ai + 11*pool + 13*ri
						vu := min(oracle, random+(share[strategy]+0.05*float64(seed%3-1))*(oracle-random))
						ve := max(0, vu-float64(seed%3))
						vs := min(oracle, vu+float64(seed%2))
						for _, reg := range []struct {
							name string
							v    float64
						}{{"U", vu}, {"E", ve}} {
							recs = append(recs, planned(scored(report.ScoreRecord{
								Model: s.model, Mode: s.mode, Dataset: d, Pool: pool, Alpha: a,
								Variant: "-", Strategy: strategy, Regime: reg.name,
								Value: reg.v, Oracle: oracle, Random: random, PoolSize: 30,
							}), vs, vu, ve, seed))
						}
					}
				}
			}
		}
	}
	return recs
}

// planned stores, in r, the regret decomposition of a plan with V_S = vs,
// V_U = vu and V_E = ve (nil where V_oracle = 0) and plan diagnostics
// following a fixed pattern of seed, as a run stores them in both of a
// pool's records.
func planned(r report.ScoreRecord, vs, vu, ve float64, seed int) report.ScoreRecord {
	f := func(x float64) *float64 { return &x }
	if l, ok := metrics.Decompose(r.Oracle, vs, vu, ve); ok {
		r.PlannedValue, r.Selection, r.Order, r.Enforcement = f(vs), f(l.Selection), f(l.Order), f(l.Enforcement)
	}
	r.Precision, r.Recall = f(0.5+0.05*float64(seed%7)), f(0.4+0.1*float64(seed%5))
	r.CostForecast, r.UnderAllocation = f(-0.5+0.25*float64(seed%5)), f(0.1*float64(seed%4))
	return r
}

// unparseable turns r into the record of a plan that could not be parsed:
// excluded, without η or anything a plan determines.
func unparseable(r report.ScoreRecord) report.ScoreRecord {
	r.Excluded, r.Eta = "unparseable", nil
	r.PlannedValue, r.Selection, r.Order, r.Enforcement = nil, nil, nil, nil
	r.Precision, r.Recall, r.CostForecast, r.UnderAllocation = nil, nil, nil, nil
	return r
}

// injectionRecords is an unsolvable-injection experiment on gpqa with
// gpqa-abstain items at r ∈ {0, 0.25, 0.5, 0.75, 1}, α = 0.5, three pools,
// the two qwen-32b solvers: the standard one leaves most unsolvables out,
// the extended one less so as r grows.
func injectionRecords() []report.ScoreRecord {
	var recs []report.ScoreRecord
	for mi, mode := range []string{"standard", "extended"} {
		for _, ratio := range []float64{0, 0.25, 0.5, 0.75, 1} {
			for pool := range 3 {
				injected := int(ratio * 10)
				oracle := float64(max(0, 8-injected))
				random := oracle / 2
				d := max(0, 0.85-0.1*float64(pool)-0.1*ratio-float64(mi)*(0.3+0.4*ratio))
				w := 0.05 + 0.05*float64(pool) + float64(mi)*0.5*ratio + 0.1*ratio
				for _, regime := range []string{"U", "E"} {
					ratio := ratio
					r := report.ScoreRecord{
						Model: "qwen-32b", Mode: mode, Dataset: "gpqa", Pool: pool, Alpha: 0.5, Variant: "default", Strategy: "llm",
						Regime: regime, Value: max(0, oracle-float64(1+mi)), Oracle: oracle, Random: random, PoolSize: 10,
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
	return recs
}

// scored stores r's η and R̃ as a run would.
func scored(r report.ScoreRecord) report.ScoreRecord {
	s := metrics.Score(r.Value, r.Oracle, r.Random)
	r.Eta, r.Regret, r.RegretDefined = &s.Eta, s.Regret, s.RegretDefined
	return r
}

// fixtureAccuracy is the solvers' base accuracy; (qwen-32b, extended, lcb)
// has no gradeable item.
func fixtureAccuracy() []report.Accuracy {
	var acc []report.Accuracy
	for si, s := range fixtureSolvers {
		for di, d := range []string{"aime", "gpqa", "lcb"} {
			a := report.Accuracy{Model: s.model, Mode: s.mode, Dataset: d, Gradeable: 60, Correct: 9 + 7*si + 5*di}
			if s.model == "qwen-32b" && s.mode == "extended" && d == "lcb" {
				a.Gradeable, a.Correct = 0, 0
			}
			acc = append(acc, a)
		}
	}
	return acc
}

// fixtureReport builds the report of the hand-made run.
func fixtureReport() report.Report {
	return report.Build(fixtureRecords(), fixtureAccuracy())
}

// fixtureBudgetAware is a budget-aware re-solve of two solvers on aime
// and gpqa, with each solver's total row.
func fixtureBudgetAware() []budgetaware.Row {
	row := func(model, mode, dataset string, kept, lost, newly, still, within, finished, withinFinished, uncapped int) budgetaware.Row {
		n := kept + lost + newly + still
		return budgetaware.Row{
			Model: model, Mode: mode, Dataset: dataset, N: n,
			AccBaseline: float64(kept+lost) / float64(n), AccBudgetAware: float64(kept+newly) / float64(n),
			Compliance: float64(within) / float64(n), Finished: finished,
			ComplianceFinished: float64(withinFinished) / float64(finished), Uncapped: uncapped,
			KeptCorrect: kept, LostCorrect: lost, NewlyCorrect: newly, StillWrong: still, Truncated: n - finished,
		}
	}
	return []budgetaware.Row{
		row("gemini-flash", "standard", "aime", 6, 2, 4, 18, 11, 28, 10, 1),
		row("gemini-flash", "standard", "gpqa", 14, 3, 5, 8, 12, 30, 12, 0),
		row("gemini-flash", "standard", budgetaware.AllDatasets, 20, 5, 9, 26, 23, 58, 22, 1),
		row("qwen-32b", "extended", "aime", 3, 4, 9, 14, 2, 21, 1, 0),
		row("qwen-32b", "extended", "gpqa", 9, 6, 7, 8, 5, 25, 4, 2),
		row("qwen-32b", "extended", budgetaware.AllDatasets, 12, 10, 16, 22, 7, 46, 5, 2),
	}
}
