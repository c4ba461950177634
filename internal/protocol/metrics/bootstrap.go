package metrics

import (
	"fmt"
	"slices"

	"github.com/triage-eval/triage/internal/protocol/splitmix"
)

// Bootstrap defaults (SPEC §5: 95% percentile bootstrap, 10,000 resamples).
const (
	DefaultResamples = 10_000
	// DefaultTailPerMille is the mass of each tail in thousandths: 25‰ on
	// either side, a 95% interval.
	DefaultTailPerMille = 25
)

// Bootstrap configures percentile-bootstrap confidence intervals of a mean.
//
// The resampling is exactly reproducible. Indices come from
// splitmix.NewIndices(splitmix.New(Seed ^ BootstrapTag), n): one continuous
// stream of uniform indices in [0, n), n draws per resample, resample after
// resample; each resample's mean sums its values in draw order and divides
// by n. The B means are sorted and the interval is
// [m_(⌈t·B/1000⌉), m_(⌈(1000−t)·B/1000⌉)] in 1-based order statistics
// (nearest-rank percentiles), t = TailPerMille, computed in integers. Every
// interval starts from the same seed, so it does not depend on which other
// intervals were computed before it.
type Bootstrap struct {
	// Resamples is B; 0 means DefaultResamples.
	Resamples int
	// Seed seeds the index stream; it is recorded with the report.
	Seed uint64
	// TailPerMille is each tail's mass in ‰, in [1, 499]; 0 means
	// DefaultTailPerMille (a 95% interval).
	TailPerMille int
}

// Resolved returns b with its defaults filled in: Resamples
// DefaultResamples when not positive, TailPerMille DefaultTailPerMille when
// outside [1, 499]. It is the one place the defaults are applied; a report
// records the resolved settings.
func (b Bootstrap) Resolved() Bootstrap {
	if b.Resamples <= 0 {
		b.Resamples = DefaultResamples
	}
	if b.TailPerMille < 1 || b.TailPerMille > 499 {
		b.TailPerMille = DefaultTailPerMille
	}
	return b
}

// Level is the intervals' confidence level as a fraction (0.95 for a
// tail of 25‰ on each side).
func (b Bootstrap) Level() float64 { return float64(1000-2*b.TailPerMille) / 1000 }

// LevelPercent is the confidence level in percent (95 for a tail of 25‰),
// as captions and pages print it.
func (b Bootstrap) LevelPercent() float64 { return 100 - float64(2*b.TailPerMille)/10 }

// BootstrapTag is XORed into the seed, so that a bootstrap seed and a
// random-reference seed of the same value give unrelated streams.
const BootstrapTag = 0x7472696167652f62 // "triage/b"

// Interval is a confidence interval; Defined is false when it could not
// be computed (fewer than two values).
type Interval struct {
	Lo, Hi  float64
	Defined bool
}

// MeanCI returns the interval of the mean of values, undefined for fewer
// than two values (SPEC §5: no interval below two pools).
func (b Bootstrap) MeanCI(values []float64) Interval {
	n := len(values)
	if n < 2 {
		return Interval{}
	}
	b = b.Resolved()
	resamples, tail := b.Resamples, b.TailPerMille
	draws := splitmix.NewIndices(splitmix.New(b.Seed^BootstrapTag), n)
	means := make([]float64, resamples)
	idx := make([]int, n)
	for j := range means {
		draws.Fill(idx)
		var sum float64
		for _, i := range idx {
			sum += values[i]
		}
		means[j] = sum / float64(n)
	}
	lo := max(ceilDiv(tail*resamples, 1000), 1)
	hi := min(ceilDiv((1000-tail)*resamples, 1000), resamples)
	return percentileInterval(means, lo, hi)
}

// orderStatistic returns the k-th smallest of xs (0-based), the value
// slices.Sort would put at index k, reordering xs (Hoare's selection with a
// median-of-three pivot: linear time on average, no sort needed for two
// percentiles of 10,000 means).
func orderStatistic(xs []float64, k int) float64 {
	lo, hi := 0, len(xs)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		if xs[mid] < xs[lo] {
			xs[mid], xs[lo] = xs[lo], xs[mid]
		}
		if xs[hi] < xs[lo] {
			xs[hi], xs[lo] = xs[lo], xs[hi]
		}
		if xs[hi] < xs[mid] {
			xs[hi], xs[mid] = xs[mid], xs[hi]
		}
		pivot := xs[mid]
		i, j := lo, hi
		for i <= j {
			for xs[i] < pivot {
				i++
			}
			for xs[j] > pivot {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return xs[k]
		}
	}
	return xs[k]
}

// ceilDiv is ⌈a/b⌉ for a ≥ 0, b > 0.
func ceilDiv(a, b int) int { return (a + b - 1) / b }

// StratifiedMeanCI returns the interval of the unweighted mean of the
// groups' means (a mean over datasets, each group one dataset's pools; SPEC
// §5). Each resample redraws every group of two or more values from its own
// values, in group order, group i from its own index stream
// (splitmix.New(Seed ^ BootstrapTag ^ (i+1)·splitmix.Gamma), i counting every
// group), drawn as MeanCI draws; a group of one value contributes that value
// unresampled. The interval is defined when every group has a value and
// there are at least two values in total: groups of one value alone give the
// point interval at their mean. A single group of two or more values gives
// MeanCI's interval.
func (b Bootstrap) StratifiedMeanCI(groups [][]float64) Interval {
	total := 0
	for _, g := range groups {
		if len(g) == 0 {
			return Interval{}
		}
		total += len(g)
	}
	if total < 2 {
		return Interval{}
	}
	if len(groups) == 1 {
		return b.MeanCI(groups[0])
	}
	b = b.Resolved()
	resamples, tail := b.Resamples, b.TailPerMille
	draws := make([]*splitmix.Indices, len(groups))
	idx := make([][]int, len(groups))
	for i, g := range groups {
		if len(g) < 2 {
			continue // a single pool enters every resample as is
		}
		draws[i] = splitmix.NewIndices(splitmix.New(b.Seed^BootstrapTag^uint64(i+1)*splitmix.Gamma), len(g))
		idx[i] = make([]int, len(g))
	}
	means := make([]float64, resamples)
	for j := range means {
		var macro float64
		for i, g := range groups {
			if draws[i] == nil {
				macro += g[0]
				continue
			}
			draws[i].Fill(idx[i])
			var sum float64
			for _, k := range idx[i] {
				sum += g[k]
			}
			macro += sum / float64(len(g))
		}
		means[j] = macro / float64(len(groups))
	}
	lo := max(ceilDiv(tail*resamples, 1000), 1)
	hi := min(ceilDiv((1000-tail)*resamples, 1000), resamples)
	return percentileInterval(means, lo, hi)
}

// MeanCIs returns MeanCI of each of sets, bit for bit, drawing the resample
// indices once for all the sets of one length instead of once per set (the
// means of one cell over the same pools — η, R̃, the losses, the
// diagnostics — share their draws, as MeanCI's fixed seed makes them share
// the stream anyway) and computing equal sets once (a pool's U and E
// records carry the same losses and diagnostics).
func (b Bootstrap) MeanCIs(sets ...[]float64) []Interval {
	out := make([]Interval, len(sets))
	byLen := map[int][]int{}
	var lens []int
	for i, s := range sets {
		if len(s) < 2 {
			continue
		}
		if _, ok := byLen[len(s)]; !ok {
			lens = append(lens, len(s))
		}
		byLen[len(s)] = append(byLen[len(s)], i)
	}
	b = b.Resolved()
	resamples, tail := b.Resamples, b.TailPerMille
	lo := max(ceilDiv(tail*resamples, 1000), 1)
	hi := min(ceilDiv((1000-tail)*resamples, 1000), resamples)
	for _, n := range lens {
		members, copies := distinct(byLen[n], func(i, j int) bool { return slices.Equal(sets[i], sets[j]) })
		draws := splitmix.NewIndices(splitmix.New(b.Seed^BootstrapTag), n)
		means := make([]float64, len(members)*resamples)
		idx := make([]int, n)
		for j := range resamples {
			draws.Fill(idx)
			for k, m := range members {
				values := sets[m]
				var sum float64
				for _, i := range idx {
					sum += values[i]
				}
				means[k*resamples+j] = sum / float64(n)
			}
		}
		for k, m := range members {
			ms := means[k*resamples : (k+1)*resamples]
			out[m] = percentileInterval(ms, lo, hi)
		}
		for dup, orig := range copies {
			out[dup] = out[orig]
		}
	}
	return out
}

// distinct splits members into the first of each class of equal members
// and a map from every other member to the first equal one.
func distinct(members []int, equal func(i, j int) bool) (firsts []int, copies map[int]int) {
	copies = map[int]int{}
	for _, m := range members {
		if i := slices.IndexFunc(firsts, func(f int) bool { return equal(f, m) }); i >= 0 {
			copies[m] = firsts[i]
			continue
		}
		firsts = append(firsts, m)
	}
	return firsts, copies
}

// StratifiedMeanCIs returns StratifiedMeanCI of each of sets, bit for bit,
// drawing the resample indices once for all the sets whose groups have the
// same sizes (the means of one macro cell over the same pools) and
// computing equal sets once.
func (b Bootstrap) StratifiedMeanCIs(sets ...[][]float64) []Interval {
	out := make([]Interval, len(sets))
	byShape := map[string][]int{}
	var shapes []string
	var single []int // one group: MeanCI's interval
	for i, groups := range sets {
		total := 0
		empty := false
		for _, g := range groups {
			empty = empty || len(g) == 0
			total += len(g)
		}
		switch {
		case empty || total < 2:
			continue
		case len(groups) == 1:
			single = append(single, i)
			continue
		}
		shape := fmt.Sprint(groupSizes(groups))
		if _, ok := byShape[shape]; !ok {
			shapes = append(shapes, shape)
		}
		byShape[shape] = append(byShape[shape], i)
	}
	if len(single) > 0 {
		flat := make([][]float64, len(single))
		for k, i := range single {
			flat[k] = sets[i][0]
		}
		for k, ci := range b.MeanCIs(flat...) {
			out[single[k]] = ci
		}
	}
	b = b.Resolved()
	resamples, tail := b.Resamples, b.TailPerMille
	lo := max(ceilDiv(tail*resamples, 1000), 1)
	hi := min(ceilDiv((1000-tail)*resamples, 1000), resamples)
	for _, shape := range shapes {
		members, copies := distinct(byShape[shape], func(i, j int) bool {
			return slices.EqualFunc(sets[i], sets[j], func(a, b []float64) bool { return slices.Equal(a, b) })
		})
		sizes := groupSizes(sets[members[0]])
		draws := make([]*splitmix.Indices, len(sizes))
		idx := make([][]int, len(sizes))
		for i, n := range sizes {
			if n < 2 {
				continue // a single pool enters every resample as is
			}
			draws[i] = splitmix.NewIndices(splitmix.New(b.Seed^BootstrapTag^uint64(i+1)*splitmix.Gamma), n)
			idx[i] = make([]int, n)
		}
		means := make([]float64, len(members)*resamples)
		for j := range resamples {
			for i, d := range draws {
				if d != nil {
					d.Fill(idx[i])
				}
			}
			for k, m := range members {
				var macro float64
				for i, g := range sets[m] {
					if draws[i] == nil {
						macro += g[0]
						continue
					}
					var sum float64
					for _, x := range idx[i] {
						sum += g[x]
					}
					macro += sum / float64(len(g))
				}
				means[k*resamples+j] = macro / float64(len(sizes))
			}
		}
		for k, m := range members {
			ms := means[k*resamples : (k+1)*resamples]
			out[m] = percentileInterval(ms, lo, hi)
		}
		for dup, orig := range copies {
			out[dup] = out[orig]
		}
	}
	return out
}

// groupSizes lists the sizes of groups.
func groupSizes(groups [][]float64) []int {
	sizes := make([]int, len(groups))
	for i, g := range groups {
		sizes[i] = len(g)
	}
	return sizes
}

// percentileInterval is the interval [means_(lo), means_(hi)] in 1-based
// order statistics, reordering means.
func percentileInterval(means []float64, lo, hi int) Interval {
	return Interval{Lo: orderStatistic(means, lo-1), Hi: orderStatistic(means, hi-1), Defined: true}
}
