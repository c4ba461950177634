package report

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/triage-eval/triage/internal/protocol/budget"
	"github.com/triage-eval/triage/internal/protocol/execution"
	"github.com/triage-eval/triage/internal/protocol/knapsack"
	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/pool"
	"github.com/triage-eval/triage/internal/protocol/randomref"
)

// noiseRunSpec shapes a synthetic run with repeated Phase 0.
type noiseRunSpec struct {
	models, modes, datasets []string
	pools, items            int
	alphas                  []float64
	scopes                  [][2]string // (strategy, variant)
	// k samples per item; identical makes every sample a copy of sample 1.
	k         int
	identical bool
	// flip is the chance a later sample's y differs from sample 1's;
	// spread the relative cost spread of later samples.
	flip, spread float64
	// orders and seed are the run's Monte Carlo random reference.
	orders int
	seed   uint64
}

// noiseRun builds the records a run would store for spec (sample 1 as the
// ground truth: B, V_oracle by knapsack, V_random by Monte Carlo with the
// run's orders and seed, V_M by executing each random plan under U and E)
// and the noise input a loader would give: every sample, the pools and the
// plans, with the run's random seed and the default R and M.
func noiseRun(spec noiseRunSpec) ([]ScoreRecord, []Accuracy, *NoiseInput) {
	rng := rand.New(rand.NewPCG(25, 6))
	in := &NoiseInput{Samples: ItemSamples{}, Pools: map[PoolKey][]PoolProblem{}, Plans: map[PlanKey][]PlanStep{}, RandomSeed: spec.seed}
	for _, d := range spec.datasets {
		for p := range spec.pools {
			var probs []PoolProblem
			for i := range spec.items {
				probs = append(probs, PoolProblem{Dataset: d, ProblemID: fmt.Sprintf("%s-%d-%d", d, p, i)})
			}
			in.Pools[PoolKey{Dataset: d, Pool: p}] = probs
		}
	}
	var recs []ScoreRecord
	var acc []Accuracy
	ctx := context.Background()
	sampler := randomref.NewSampler(2)
	for _, m := range spec.models {
		for _, md := range spec.modes {
			for _, d := range spec.datasets {
				a := Accuracy{Model: m, Mode: md, Dataset: d}
				for p := range spec.pools {
					pk := PoolKey{Dataset: d, Pool: p}
					var items []pool.Item
					for _, pr := range in.Pools[pk] {
						first := Sample{Cost: 200 + rng.Int64N(4000), Correct: rng.IntN(2) == 0, Gradeable: true}
						samples := []Sample{first}
						for range spec.k - 1 {
							s := first
							if !spec.identical {
								s.Cost = max(1, int64(float64(first.Cost)*(1+spec.spread*(2*rng.Float64()-1))))
								if rng.Float64() < spec.flip {
									s.Correct = !s.Correct
								}
							}
							samples = append(samples, s)
						}
						in.Samples[ItemKey{m, md, d, pr.ProblemID}] = samples
						items = append(items, pool.Item{ID: pr.ProblemID, Cost: first.Cost, Value: 1, Correct: first.Correct})
						a.Gradeable++
						if first.Correct {
							a.Correct++
						}
					}
					ep, err := execution.NewPool(items)
					if err != nil {
						panic(err)
					}
					total := pool.TotalCost(items)
					budgets := make([]int64, len(spec.alphas))
					for i, alpha := range spec.alphas {
						budgets[i], _ = budget.FromAlpha(alpha, total)
					}
					random, err := sampler.MonteCarlo(ctx, items, budgets, spec.orders, spec.seed)
					if err != nil {
						panic(err)
					}
					for i, alpha := range spec.alphas {
						sol, err := knapsack.Solve(ctx, items, budgets[i])
						if err != nil {
							panic(err)
						}
						for _, sv := range spec.scopes {
							var steps []PlanStep
							for _, j := range rng.Perm(len(items)) {
								if rng.IntN(4) > 0 {
									steps = append(steps, PlanStep{ProblemID: items[j].ID, Tokens: 1 + rng.Int64N(2*items[j].Cost)})
								}
							}
							in.Plans[PlanKey{Model: m, Mode: md, Pool: pk, Alpha: alpha, Variant: sv[1], Strategy: sv[0]}] = steps
							raw := make([]execution.Step, len(steps))
							for k, s := range steps {
								raw[k] = execution.Step{ID: s.ProblemID, Tokens: s.Tokens}
							}
							plan := execution.Normalize(ep, raw)
							for _, reg := range []struct {
								name string
								r    execution.Regime
							}{{"U", execution.Advisory}, {"E", execution.Enforced}} {
								v := execution.Execute(ep, plan, budgets[i], reg.r).Value
								s := metrics.Score(v, sol.Value, random[i].Mean)
								recs = append(recs, ScoreRecord{
									Model: m, Mode: md, Dataset: d, Pool: p, Alpha: alpha, Variant: sv[1], Strategy: sv[0], Regime: reg.name,
									Value: v, Oracle: sol.Value, Random: random[i].Mean, RandomStderr: random[i].StdErr, Budget: budgets[i],
									Eta: &s.Eta, Regret: s.Regret, RegretDefined: s.RegretDefined, PoolSize: len(items),
								})
							}
						}
					}
				}
				acc = append(acc, a)
			}
		}
	}
	return recs, acc, in
}

// smallNoiseSpec is a run small enough for unit tests.
func smallNoiseSpec() noiseRunSpec {
	return noiseRunSpec{
		models: []string{"m1", "m2"}, modes: []string{"standard"}, datasets: []string{"aime", "gpqa"},
		pools: 4, items: 8, alphas: []float64{0.25, 0.5, 1},
		scopes: [][2]string{{"llm", "default"}, {"random", "-"}},
		k:      3, flip: 0.2, spread: 0.3, orders: 100, seed: 7,
	}
}
