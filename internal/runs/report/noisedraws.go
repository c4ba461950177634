package report

import (
	"context"
	"hash/fnv"
	"math"
	"runtime"
	"sync"

	"github.com/triage-eval/triage/internal/protocol/budget"
	"github.com/triage-eval/triage/internal/protocol/execution"
	"github.com/triage-eval/triage/internal/protocol/knapsack"
	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/pool"
	"github.com/triage-eval/triage/internal/protocol/randomref"
	"github.com/triage-eval/triage/internal/protocol/splitmix"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// noiseRec is what the noise-aware interval needs of an averaged record:
// its pool and its stored numbers, index for index with perPool.eta.
type noiseRec struct {
	pool                  int
	value, oracle, random float64
	budget                int64
}

// withNoiseIntervals sets every plain and injection cell's EtaNoiseCI
// (SPEC §9), the cells of one (solver, dataset, source, ratio) — which
// share their pools' draws — computed together, the groups spread over the
// machine's cores. See docs/reports.md for the method.
func withNoiseIntervals(b metrics.Bootstrap, in *NoiseInput, settings *Noise, keepAlpha float64, groups ...[]Cell) {
	withNoiseIntervalsOpt(b, in, settings, keepAlpha, false, groups...)
}

// withNoiseIntervalsOpt is withNoiseIntervals, with the shortcut for
// pools whose samples agree turned off when recompute is set.
func withNoiseIntervalsOpt(b metrics.Bootstrap, in *NoiseInput, settings *Noise, keepAlpha float64, recompute bool, groups ...[]Cell) {
	jobs := make(chan []Cell)
	var wg sync.WaitGroup
	for range max(runtime.GOMAXPROCS(0), 1) {
		wg.Go(func() {
			w := noiseWorker{in: in, boot: b, draws: settings.Draws, orders: settings.RandomOrders, seed: settings.RandomSeed, sampler: randomref.NewSampler(4), recompute: recompute, keepAlpha: keepAlpha}
			for cells := range jobs {
				w.group(cells)
			}
		})
	}
	for _, cells := range groups {
		for start := 0; start < len(cells); {
			end := start + 1
			for end < len(cells) && samePools(cells[start], cells[end]) {
				end++
			}
			jobs <- cells[start:end]
			start = end
		}
	}
	close(jobs)
	wg.Wait()
}

// samePools reports whether two cells are over the same pools of one
// solver (they differ in α, strategy, variant or regime only).
func samePools(a, b Cell) bool {
	return a.Model == b.Model && a.Mode == b.Mode && a.Dataset == b.Dataset && a.Source == b.Source && a.Ratio == b.Ratio
}

// noiseWorker computes noise-aware intervals, one group of cells at a time.
type noiseWorker struct {
	in            *NoiseInput
	boot          metrics.Bootstrap
	draws, orders int
	seed          uint64 // of the M random orders
	sampler       *randomref.Sampler
	// recompute turns off the shortcut for pools whose samples all agree
	// (tests check that the recomputation gives the same draws).
	recompute bool
	// keepAlpha is the α whose cells keep their draws (perPool.noiseDraws).
	keepAlpha float64
}

// poolDraws are one solver's pool under sample 1 and under each of R
// draws, with the references at every α of the group.
type poolDraws struct {
	ok bool
	// base is the pool under sample 1; pools[r] under draw r (nil when
	// constant: every item's gradeable samples agree, so every draw is
	// sample 1).
	base     *execution.Pool
	pools    []*execution.Pool
	constant bool
	refs     map[uint64]*alphaRefs
}

// alphaRefs are B and V_oracle under sample 1 and under each draw, and each
// draw's change of V_random from sample 1 (M common random orders).
type alphaRefs struct {
	ok               bool
	budget1          int64
	oracle1          float64
	budgets          []int64
	oracles, dRandom []float64
}

// group sets the noise-aware intervals of cells, all over the same pools.
func (w *noiseWorker) group(cells []Cell) {
	first := cells[0]
	var alphas []float64
	for _, c := range cells {
		alphas = appendNew(alphas, c.Alpha)
	}
	pools := map[int]*poolDraws{}
	for plan := range plans(cells) {
		sets := make([][][]float64, len(plan))
		for i := range plan {
			c := &plan[i]
			sets[i] = w.cellDraws(c, first, alphas, pools)
			if c.NoiseUnmatched > 0 {
				sets[i] = nil // undefined: the draws would not be of this cell's plans
			}
		}
		for i, ci := range w.boot.TwoStageMeanCIs(sets...) {
			plan[i].EtaNoiseCI = ci
			if plan[i].Alpha == w.keepAlpha {
				plan[i].perPool.noiseDraws = sets[i]
			}
		}
	}
}

// cellDraws returns the draws of η of each pool c averaged, counting in
// c.NoiseUnmatched the records whose pool or plan is missing from the input
// or whose sample-1 recomputation (B, V_oracle, V_M) disagrees with the
// stored record.
func (w *noiseWorker) cellDraws(c *Cell, group Cell, alphas []float64, pools map[int]*poolDraws) [][]float64 {
	regime := execution.Advisory
	switch c.Regime {
	case vocab.Advisory:
	case vocab.Enforced:
		regime = execution.Enforced
	default:
		c.NoiseUnmatched = len(c.perPool.noise)
		return nil
	}
	out := make([][]float64, len(c.perPool.noise))
	buf := make([]float64, len(c.perPool.noise)*w.draws) // one allocation for the cell
	for i, rec := range c.perPool.noise {
		pk := PoolKey{Dataset: c.Dataset, Source: c.Source, Ratio: c.Ratio, Pool: rec.pool}
		pd, ok := pools[rec.pool]
		if !ok {
			pd = w.poolDraws(group, pk, alphas)
			pools[rec.pool] = pd
		}
		steps, ok := w.in.Plans[PlanKey{Model: c.Model, Mode: c.Mode, Pool: pk, Alpha: c.Alpha, Variant: string(c.Variant), Strategy: string(c.Strategy)}]
		ar := pd.refs[math.Float64bits(c.Alpha)]
		if !ok || !pd.ok || ar == nil || !ar.ok {
			c.NoiseUnmatched++
			continue
		}
		raw := make([]execution.Step, len(steps))
		for k, s := range steps {
			raw[k] = execution.Step{ID: s.ProblemID, Tokens: s.Tokens}
		}
		plan := execution.Normalize(pd.base, raw)
		v1 := execution.Execute(pd.base, plan, ar.budget1, regime).Value
		if len(plan.Log) > 0 || !near(v1, rec.value) || !near(ar.oracle1, rec.oracle) || (rec.budget != 0 && rec.budget != ar.budget1) {
			c.NoiseUnmatched++
			continue
		}
		d := buf[i*w.draws : (i+1)*w.draws : (i+1)*w.draws]
		if pd.constant {
			for r := range d {
				d[r] = c.perPool.eta[i]
			}
		} else {
			for r := range d {
				v := execution.Execute(pd.pools[r], plan, ar.budgets[r], regime).Value
				// The stored V_random moved by the change the common orders
				// see: exactly the stored value when the draw is sample 1.
				d[r] = metrics.Score(v, ar.oracles[r], rec.random+ar.dRandom[r]).Eta
			}
		}
		out[i] = d
	}
	return out
}

// poolDraws builds one solver's pool pk under sample 1 and R draws, and
// the references at each α.
func (w *noiseWorker) poolDraws(solver Cell, pk PoolKey, alphas []float64) *poolDraws {
	pd := &poolDraws{refs: map[uint64]*alphaRefs{}}
	problems, ok := w.in.Pools[pk]
	if !ok {
		return pd
	}
	var base []pool.Item
	var choices [][]Sample // each item's gradeable samples
	var hashes []uint64
	var unsolvable []bool
	pd.constant = true
	for _, p := range problems {
		samples := w.in.Samples[ItemKey{Model: solver.Model, Mode: solver.Mode, Dataset: p.Dataset, ProblemID: p.ProblemID}]
		if len(samples) == 0 || !samples[0].Gradeable {
			continue // not in this solver's pool (SPEC §1)
		}
		value := p.Value
		if value == 0 {
			value = 1
		}
		base = append(base, pool.Item{ID: p.ProblemID, Cost: samples[0].Cost, Value: value, Correct: samples[0].Correct && !p.Unsolvable})
		var g []Sample
		for _, s := range samples {
			if s.Gradeable {
				g = append(g, s)
				if s.Cost != samples[0].Cost || s.Correct != samples[0].Correct {
					pd.constant = false
				}
			}
		}
		choices = append(choices, g)
		hashes = append(hashes, w.itemSeed(solver.Model, solver.Mode, p.Dataset, p.ProblemID))
		unsolvable = append(unsolvable, p.Unsolvable)
	}
	var err error
	if pd.base, err = execution.NewPool(base); err != nil || len(base) == 0 {
		return pd
	}
	pd.constant = pd.constant && !w.recompute
	drawn := make([][]pool.Item, w.draws)
	if !pd.constant {
		pd.pools = make([]*execution.Pool, w.draws)
		for r := range drawn {
			items := make([]pool.Item, len(base))
			for i, it := range base {
				s := choices[i][pickSample(hashes[i], r, len(choices[i]))]
				it.Cost, it.Correct = s.Cost, s.Correct && !unsolvable[i]
				items[i] = it
			}
			drawn[r] = items
			if pd.pools[r], err = execution.NewPool(items); err != nil {
				return pd
			}
		}
	}
	ctx := context.Background()
	total1 := pool.TotalCost(base)
	budgets1 := make([]int64, len(alphas))
	for a, alpha := range alphas {
		ar := &alphaRefs{}
		pd.refs[math.Float64bits(alpha)] = ar
		if ar.budget1, err = budget.FromAlpha(alpha, total1); err != nil {
			continue
		}
		sol, err := knapsack.Solve(ctx, base, ar.budget1)
		if err != nil {
			continue
		}
		ar.oracle1, ar.ok = sol.Value, true
		budgets1[a] = ar.budget1
	}
	pd.ok = true
	if pd.constant {
		return pd
	}
	random1, err := w.sampler.MonteCarlo(ctx, base, budgets1, w.orders, w.seed)
	if err != nil {
		pd.ok = false
		return pd
	}
	for _, ar := range pd.refs {
		ar.budgets, ar.oracles, ar.dRandom = make([]int64, w.draws), make([]float64, w.draws), make([]float64, w.draws)
	}
	budgets := make([]int64, len(alphas))
	for r, items := range drawn {
		total := pool.TotalCost(items)
		for a, alpha := range alphas {
			ar := pd.refs[math.Float64bits(alpha)]
			if !ar.ok {
				continue
			}
			b, _ := budget.FromAlpha(alpha, total) // α was valid for sample 1
			sol, err := knapsack.Solve(ctx, items, b)
			if err != nil {
				ar.ok = false
				continue
			}
			ar.budgets[r], ar.oracles[r], budgets[a] = b, sol.Value, b
		}
		est, err := w.sampler.MonteCarlo(ctx, items, budgets, w.orders, w.seed)
		if err != nil {
			pd.ok = false
			return pd
		}
		for a, alpha := range alphas {
			ar := pd.refs[math.Float64bits(alpha)]
			ar.dRandom[r] = est[a].Mean - random1[a].Mean
		}
	}
	return pd
}

// itemSeed is the seed of one (solver, problem)'s sample choices: FNV-1a of
// its names mixed with the bootstrap seed and NoiseTag, so that draw r
// picks the same sample of an item in every pool, α and plan (each draw is
// one re-measurement of Phase 0).
func (w *noiseWorker) itemSeed(model, mode, dataset, problem string) uint64 {
	h := fnv.New64a()
	for _, s := range []string{model, mode, dataset, problem} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return splitmix.Mix64(h.Sum64() ^ w.boot.Seed ^ metrics.NoiseTag)
}

// pickSample is the sample draw r takes of an item with n gradeable
// samples: the high half of Mix64(seed + (r+1)·γ), mapped to [0, n) by
// multiply-shift (bias below n/2^32).
func pickSample(seed uint64, r, n int) int {
	x := splitmix.Mix64(seed+uint64(r+1)*splitmix.Gamma) >> 32
	return int(x * uint64(n) >> 32)
}

// withMacroNoiseIntervals sets the noise-aware interval of every macro cell
// at the headline α from its datasets' draws, stratified as EtaCI is (a
// dataset whose cell has no draws leaves the macro cell without one).
func (r *Report) withMacroNoiseIntervals() {
	ix := r.cellIndex()
	for i := range r.Macros {
		m := &r.Macros[i]
		if m.Alpha != r.Alpha {
			continue
		}
		strata := make([][][]float64, 0, len(m.perPool.etaDatasets))
		complete := true
		for _, d := range m.perPool.etaDatasets {
			c := ix.cells[cellKey{model: m.Model, mode: m.Mode, dataset: d, alpha: math.Float64bits(m.Alpha), variant: m.Variant, strategy: m.Strategy, regime: m.Regime}]
			m.NoiseUnmatched += c.NoiseUnmatched
			complete = complete && c.NoiseUnmatched == 0 && c.perPool.noiseDraws != nil
			strata = append(strata, c.perPool.noiseDraws)
		}
		if complete {
			m.EtaNoiseCI = r.Bootstrap.TwoStageStratifiedMeanCIs(strata)[0]
		}
	}
}
