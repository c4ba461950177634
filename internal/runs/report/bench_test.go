package report

import (
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/metrics"
)

// paperScale builds a synthetic run of the paper's size: 6 solvers (3
// models × 2 modes), 8 datasets, 20 budget fractions, strategy llm under 4
// prompt variants and the reference strategies, regimes U and E, 5 pools
// per cell. With partial set, the partial-information references
// (population, self_feasibility, self_cost; SPEC §4) join the reference
// strategies and every record carries the regret decomposition and the plan
// diagnostics (SPEC §5): 19,200 cells and 96,000 records; without it 13,440
// cells and 67,200 records, the run a report of before issue 24 read.
func paperScale(partial bool) ([]ScoreRecord, []Accuracy) {
	rng := rand.New(rand.NewPCG(24, 0))
	models := []string{"m1", "m2", "m3"}
	modes := []string{"extended", "standard"}
	type sv struct{ strategy, variant string }
	svs := []sv{{"llm", "default"}, {"llm", "A"}, {"llm", "B"}, {"llm", "C"}, {"random", "-"}, {"shortest_first", "-"}, {"all_in_order", "-"}}
	if partial {
		svs = append(svs, sv{"population", "-"}, sv{"self_feasibility", "-"}, sv{"self_cost", "-"})
	}
	var recs []ScoreRecord
	var acc []Accuracy
	for _, m := range models {
		for _, md := range modes {
			for d := range 8 {
				dataset := fmt.Sprintf("dataset%d", d)
				acc = append(acc, Accuracy{Model: m, Mode: md, Dataset: dataset, Correct: 60 + d, Gradeable: 150})
				for a := range 20 {
					alpha := float64(a+1) / 20
					for _, s := range svs {
						for pool := range 5 {
							oracle := float64(rng.IntN(11)) // 0 in one pool of 11: D1
							random := oracle * alpha * rng.Float64()
							vs := oracle - float64(rng.IntN(int(oracle)/2+1))
							vu := vs - float64(rng.IntN(int(vs)/2+1))
							ve := max(0, vu-float64(rng.IntN(3)-1))
							for _, reg := range []struct {
								name  string
								value float64
							}{{"U", vu}, {"E", ve}} {
								ps := metrics.Score(reg.value, oracle, random)
								eta := ps.Eta
								r := ScoreRecord{
									Model: m, Mode: md, Dataset: dataset, Pool: pool, Alpha: alpha,
									Variant: s.variant, Strategy: s.strategy, Regime: reg.name,
									Value: reg.value, Oracle: oracle, Random: random, RandomStderr: 0.01,
									Budget: 10_000, Eta: &eta, Regret: ps.Regret, RegretDefined: ps.RegretDefined, PoolSize: 30,
								}
								if partial {
									decorate(&r, rng, oracle, vs, vu, ve)
								}
								recs = append(recs, r)
							}
						}
					}
				}
			}
		}
	}
	return recs, acc
}

// BenchmarkReportPaperScale builds a paper-scale report (paperScale with
// the partial-information references and the new per-pool fields) and
// renders every file WriteDir writes, in memory: what `triage report`
// spends before the figures. BenchmarkReportPaperScaleBefore24 does the
// same with the run of before issue 24 (paperScale(false)), the one a
// build from before it can read: docs/performance.md compares the two.
func BenchmarkReportPaperScale(b *testing.B) { benchmarkReport(b, true) }

// BenchmarkReportPaperScaleBefore24: see BenchmarkReportPaperScale.
func BenchmarkReportPaperScaleBefore24(b *testing.B) { benchmarkReport(b, false) }

func benchmarkReport(b *testing.B, partial bool) {
	recs, acc := paperScale(partial)
	b.ResetTimer()
	for b.Loop() {
		rep := BuildWith(recs, acc, Options{})
		for _, f := range files {
			if err := f.Write(rep, io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	}
}
