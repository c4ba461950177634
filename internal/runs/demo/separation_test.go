package demo

import (
	"context"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/budget"
	"github.com/triage-eval/triage/internal/protocol/execution"
	"github.com/triage-eval/triage/internal/protocol/knapsack"
	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/partialref"
	"github.com/triage-eval/triage/internal/protocol/pool"
	"github.com/triage-eval/triage/internal/protocol/pools"
	"github.com/triage-eval/triage/internal/protocol/randomref"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// The demo's grid (internal/cli/demo.go): pools of the default size in
// partition seed 1, the random reference over 1,000 shuffles of seed 1.
const (
	demoPoolSize      = pools.DefaultSize
	demoPartitionSeed = 1
	demoRandomSamples = 1000
	demoRandomSeed    = 1
)

// TestReferencesSeparate checks what solverModels are built for: on the
// demo's pools, knowing itself adds little to synthetic-careful's plan
// beyond what the other model's record says about the problems, and much
// to synthetic-hasty's, whose slips are its own. It computes η_U of the
// partial-information references (SPEC §4) from the ground truth as the
// grid does — the population is the other model's two modes, the pools and
// the random reference are the demo's — and compares, per solver, the mean
// over the base pools of both datasets at α = 0.5 (the summary's α) and
// over α = 0.25, 0.5 and 0.75 (at α = 1 there is nothing to choose).
func TestReferencesSeparate(t *testing.T) {
	type gaps struct{ feasibility, cost float64 } // η_U of self_feasibility, self_cost minus population's
	for _, tc := range []struct {
		name   string
		alphas []float64
	}{
		{"summary α", []float64{0.5}},
		{"α sweep", []float64{0.25, 0.5, 0.75}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eta := referenceEtas(t, tc.alphas)
			gap := map[Solver]gaps{}
			for _, s := range Solvers() {
				e := eta[s]
				gap[s] = gaps{e[vocab.SelfFeasibility] - e[vocab.Population], e[vocab.SelfCost] - e[vocab.Population]}
				t.Logf("%-17s %-8s η_U population %.3f; minus it: self_feasibility %+.3f, self_cost %+.3f",
					s.Model, s.Mode, e[vocab.Population], gap[s].feasibility, gap[s].cost)
			}
			for _, mode := range []string{"standard", "extended"} {
				careful, hasty := gap[Solver{"synthetic-careful", mode}], gap[Solver{"synthetic-hasty", mode}]
				if careful.feasibility > 0.1 {
					t.Errorf("%s: synthetic-careful's self_feasibility beats population by %.3f; want at most 0.1 (the other model's record predicts it)", mode, careful.feasibility)
				}
				if hasty.feasibility < 0.15 || hasty.feasibility < careful.feasibility+0.1 {
					t.Errorf("%s: synthetic-hasty's self_feasibility beats population by %.3f (synthetic-careful's by %.3f); want at least 0.15, and 0.1 more than synthetic-careful's", mode, hasty.feasibility, careful.feasibility)
				}
				if hasty.cost < 0.25 || hasty.cost < careful.cost+0.15 {
					t.Errorf("%s: synthetic-hasty's self_cost beats population by %.3f (synthetic-careful's by %.3f); want at least 0.25, and 0.15 more than synthetic-careful's", mode, hasty.cost, careful.cost)
				}
			}
		})
	}
}

// referenceEtas returns, per solver and partial-information reference, the
// mean η_U over the base pools of every dataset and the given α.
func referenceEtas(t *testing.T, alphas []float64) map[Solver]map[vocab.Strategy]float64 {
	t.Helper()
	ctx := context.Background()
	ps := genProblems()
	type key struct {
		s           Solver
		dataset, id string
	}
	truth := map[key]gtRecord{}
	for _, rec := range genTruth(ps) {
		truth[key{Solver{rec.Model, rec.Mode}, rec.Dataset, rec.ProblemID}] = rec
	}
	out := map[Solver]map[vocab.Strategy]float64{}
	for _, s := range Solvers() {
		var sums [3]float64
		n := 0
		for _, ds := range Datasets() {
			var ids []string
			for _, p := range ps {
				if p.Dataset == ds {
					ids = append(ids, p.ID)
				}
			}
			parts, err := pools.Partition(ds, ids, demoPoolSize, demoPartitionSeed)
			if err != nil {
				t.Fatal(err)
			}
			for _, part := range parts {
				var items []pool.Item
				var population [][]partialref.Record
				for _, id := range part.ProblemIDs {
					rec := truth[key{s, ds, id}]
					if !rec.Gradeable {
						continue
					}
					items = append(items, pool.Item{ID: id, Cost: rec.Cost, Value: 1, Correct: rec.Correct})
					var recs []partialref.Record
					for _, other := range Solvers() {
						if r := truth[key{other, ds, id}]; other.Model != s.Model && r.Gradeable {
							recs = append(recs, partialref.Record{Cost: r.Cost, Correct: r.Correct})
						}
					}
					population = append(population, recs)
				}
				est, err := partialref.Estimate(items, population)
				if err != nil {
					t.Fatal(err)
				}
				ep, err := execution.NewPool(items)
				if err != nil {
					t.Fatal(err)
				}
				for _, alpha := range alphas {
					b, err := budget.FromAlpha(alpha, pool.TotalCost(items))
					if err != nil {
						t.Fatal(err)
					}
					oracle, err := knapsack.Solve(ctx, items, b)
					if err != nil {
						t.Fatal(err)
					}
					random, err := randomref.MonteCarlo(ctx, items, []int64{b}, demoRandomSamples, demoRandomSeed)
					if err != nil {
						t.Fatal(err)
					}
					plans := est.Plans(b)
					for i, st := range vocab.PartialReferences() {
						v := execution.RunAdvisory(ep, execution.Normalize(ep, plans[st]), b).Value
						sums[i] += metrics.Eta(v, oracle.Value, random[0].Mean)
					}
					n++
				}
			}
		}
		out[s] = map[vocab.Strategy]float64{}
		for i, st := range vocab.PartialReferences() {
			out[s][st] = sums[i] / float64(n)
		}
	}
	return out
}
