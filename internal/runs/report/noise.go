package report

import (
	"cmp"
	"math"
	"slices"

	"github.com/triage-eval/triage/internal/protocol/metrics"
)

// Noise input defaults (SPEC §9; docs/reports.md says why).
const (
	// DefaultNoiseDraws is R, the noise draws computed per pool for the
	// noise-aware intervals.
	DefaultNoiseDraws = 200
	// DefaultNoiseRandomOrders is M, the common random orders each draw's
	// change of V_random is estimated with.
	DefaultNoiseRandomOrders = 250
	// MaxNoiseDraws and MaxNoiseRandomOrders bound R and M (larger
	// settings are taken as these): memory grows with R per pool and plan.
	MaxNoiseDraws        = 10_000
	MaxNoiseRandomOrders = 100_000
)

// ItemKey names one (solver, problem): the unit Phase 0 samples.
type ItemKey struct {
	Model, Mode, Dataset, ProblemID string
}

// Sample is one Phase 0 measurement of an item. Gradeable is false when
// the call failed: such a sample has no (c, y) and is never drawn.
type Sample struct {
	Cost               int64
	Correct, Gradeable bool
}

// ItemSamples are each item's samples in sample order: index 0 is sample
// 1, the ground truth the run's cells were scored with (SPEC §9).
type ItemSamples map[ItemKey][]Sample

// PoolKey names a pool of the run's manifest, the same for every solver: a
// plain pool (Source "", Ratio 0) or an injected pool of the unsolvable
// experiment.
type PoolKey struct {
	Dataset string
	Source  string
	Ratio   float64
	Pool    int
}

// PoolProblem is one problem of a pool, in pool order. Value 0 means 1
// (SPEC §1's default); Unsolvable marks a problem whose y is 0 by
// construction whatever its samples say (SPEC §1).
type PoolProblem struct {
	Dataset, ProblemID string
	Value              float64
	Unsolvable         bool
}

// PlanKey names one stored plan: a cell of one pool before its regime.
type PlanKey struct {
	Model, Mode string
	Pool        PoolKey
	Alpha       float64
	Variant     string
	Strategy    string
}

// PlanStep is one step of a stored plan as the Executor normalized it: a
// problem of the pool and its allocation (> 0), in plan order.
type PlanStep struct {
	ProblemID string
	Tokens    int64
}

// NoiseInput is what the measurement-noise part of a report is computed
// from (SPEC §9): every item's samples, the run's pools and every stored
// plan. With at most one sample per item the part is omitted and the
// report is the one Build gives without it.
type NoiseInput struct {
	// Samples are the Phase 0 samples of every (solver, problem).
	Samples ItemSamples
	// Pools are the manifest's pools, problems in pool order. A solver's
	// pool is its problems whose sample 1 is gradeable (SPEC §1), in that
	// order: the items its references and plans were computed over.
	Pools map[PoolKey][]PoolProblem
	// Plans are the stored plans of the scored cells.
	Plans map[PlanKey][]PlanStep
	// Draws is R (0: DefaultNoiseDraws), RandomOrders M (0:
	// DefaultNoiseRandomOrders) and RandomSeed the seed of the M orders;
	// see docs/reports.md. With the run's random.seed the M orders are the
	// first M of the run's Monte Carlo reference.
	Draws, RandomOrders int
	RandomSeed          uint64
}

// maxSamples is the most samples any item has.
func (in *NoiseInput) maxSamples() int {
	if in == nil {
		return 0
	}
	k := 0
	for _, s := range in.Samples {
		k = max(k, len(s))
	}
	return k
}

// Noise is the measurement-noise part of a report (SPEC §9), nil when no
// item has more than one sample.
type Noise struct {
	// K is the most samples any item has; Draws (R), RandomOrders (M)
	// and RandomSeed are the settings the noise-aware intervals were
	// computed with.
	K, Draws, RandomOrders int
	RandomSeed             uint64
	// Items are the per-item figures, sorted by (model, mode, dataset,
	// problem).
	Items []ItemNoise
	// Solvers are their means per (model, mode, dataset), in that order.
	Solvers []SolverNoise
}

// ItemNoise is the measurement noise of one item.
type ItemNoise struct {
	ItemKey
	// Samples is k for this item; Gradeable counts its gradeable samples.
	Samples, Gradeable int
	// FlipRate is the share of the gradeable samples 2…k whose y differs
	// from sample 1's (N = those samples); undefined when sample 1 is not
	// gradeable or no other sample is.
	FlipRate metrics.Mean
	// CostCV is the coefficient of variation of the cost over the gradeable
	// samples, sample 1 included: the sample standard deviation (divisor
	// N − 1) over the mean (N = those samples); undefined below two.
	CostCV metrics.Mean
}

// SolverNoise is the mean measurement noise of one solver on one dataset.
type SolverNoise struct {
	Model, Mode, Dataset string
	// Items counts the dataset's items with samples; K the most samples
	// one of them has.
	Items, K int
	// FlipRate and CostCV are the means of the items' defined FlipRate
	// and CostCV, N the items averaged.
	FlipRate, CostCV metrics.Mean
}

// itemNoise computes one item's figures from its samples.
func itemNoise(k ItemKey, samples []Sample) ItemNoise {
	out := ItemNoise{ItemKey: k, Samples: len(samples)}
	var costs []float64
	flips, others := 0, 0
	for i, s := range samples {
		if !s.Gradeable {
			continue
		}
		out.Gradeable++
		costs = append(costs, float64(s.Cost))
		if i > 0 && samples[0].Gradeable {
			others++
			if s.Correct != samples[0].Correct {
				flips++
			}
		}
	}
	if others > 0 {
		out.FlipRate = metrics.Mean{Value: float64(flips) / float64(others), N: others, Defined: true}
	}
	if n := len(costs); n >= 2 {
		var sum float64
		for _, c := range costs {
			sum += c
		}
		mean := sum / float64(n)
		var ss float64
		for _, c := range costs {
			ss += (c - mean) * (c - mean)
		}
		if mean > 0 {
			out.CostCV = metrics.Mean{Value: math.Sqrt(ss/float64(n-1)) / mean, N: n, Defined: true}
		}
	}
	return out
}

// buildNoise computes the per-item and per-(solver, dataset) figures; nil
// when no item has two samples.
func buildNoise(in *NoiseInput) *Noise {
	k := in.maxSamples()
	if k < 2 {
		return nil
	}
	out := &Noise{K: k, Draws: DefaultNoiseDraws, RandomOrders: DefaultNoiseRandomOrders, RandomSeed: in.RandomSeed}
	if in.Draws > 0 {
		out.Draws = min(in.Draws, MaxNoiseDraws)
	}
	if in.RandomOrders > 0 {
		out.RandomOrders = min(in.RandomOrders, MaxNoiseRandomOrders)
	}
	for key, s := range in.Samples {
		out.Items = append(out.Items, itemNoise(key, s))
	}
	slices.SortFunc(out.Items, func(a, b ItemNoise) int {
		return cmp.Or(cmp.Compare(a.Model, b.Model), cmp.Compare(a.Mode, b.Mode), cmp.Compare(a.Dataset, b.Dataset), cmp.Compare(a.ProblemID, b.ProblemID))
	})
	var flipSum, cvSum float64
	for i, it := range out.Items {
		if i == 0 || it.Model != out.Items[i-1].Model || it.Mode != out.Items[i-1].Mode || it.Dataset != out.Items[i-1].Dataset {
			out.Solvers = append(out.Solvers, SolverNoise{Model: it.Model, Mode: it.Mode, Dataset: it.Dataset})
			flipSum, cvSum = 0, 0
		}
		s := &out.Solvers[len(out.Solvers)-1]
		s.Items++
		s.K = max(s.K, it.Samples)
		if it.FlipRate.Defined {
			flipSum += it.FlipRate.Value
			s.FlipRate.N++
		}
		if it.CostCV.Defined {
			cvSum += it.CostCV.Value
			s.CostCV.N++
		}
		s.FlipRate = meanOf(flipSum, s.FlipRate.N)
		s.CostCV = meanOf(cvSum, s.CostCV.N)
	}
	return out
}
