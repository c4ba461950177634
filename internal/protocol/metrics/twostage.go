package metrics

import (
	"slices"

	"github.com/triage-eval/triage/internal/protocol/splitmix"
)

// NoiseTag is XORed into the bootstrap seed (after BootstrapTag) for the
// second stage of TwoStageMeanCIs, so that its picks are unrelated to the
// pool indices drawn from the same seed.
const NoiseTag = 0x7472696167652f6e // "triage/n"

// TwoStageMeanCIs returns, for each of sets, the two-stage percentile
// interval of a mean over pools whose values are themselves uncertain
// (SPEC §9: the noise-aware interval). sets[s][i] lists pool i's draws:
// equally likely values of the pool's metric, every pool of a set with the
// same number of draws R ≥ 1.
//
// Each resample draws the n pool indices exactly as MeanCI draws them (the
// same stream, resample after resample), then, for each drawn pool in draw
// order, one of its R draws uniformly from a second stream
// (splitmix.New(Seed ^ BootstrapTag ^ NoiseTag), R per index: a pool drawn
// twice gets two independent picks); the resample's mean sums the picked
// draws in draw order and divides by n. The interval is MeanCI's
// nearest-rank percentiles of the resample means. So when every draw of a
// pool equals one value, the interval is MeanCI's interval of those values,
// bit for bit. Sets of the same n and R share both streams, as MeanCIs
// shares its draws, and equal sets are computed once; each gets the
// interval it would have alone. Fewer than two pools give an undefined
// interval; sets whose pools disagree on R, or have none, are undefined too.
func (b Bootstrap) TwoStageMeanCIs(sets ...[][]float64) []Interval {
	out := make([]Interval, len(sets))
	type shape struct{ n, r int }
	byShape := map[shape][]int{}
	var shapes []shape
	for i, s := range sets {
		if len(s) < 2 {
			continue
		}
		r := len(s[0])
		if r < 1 || slices.ContainsFunc(s, func(d []float64) bool { return len(d) != r }) {
			continue
		}
		sh := shape{len(s), r}
		if _, ok := byShape[sh]; !ok {
			shapes = append(shapes, sh)
		}
		byShape[sh] = append(byShape[sh], i)
	}
	b = b.Resolved()
	resamples, tail := b.Resamples, b.TailPerMille
	lo := max(ceilDiv(tail*resamples, 1000), 1)
	hi := min(ceilDiv((1000-tail)*resamples, 1000), resamples)
	for _, sh := range shapes {
		members, copies := distinct(byShape[sh], func(i, j int) bool {
			return slices.EqualFunc(sets[i], sets[j], func(a, b []float64) bool { return slices.Equal(a, b) })
		})
		n := sh.n
		pools := splitmix.NewIndices(splitmix.New(b.Seed^BootstrapTag), n)
		picks := splitmix.NewIndices(splitmix.New(b.Seed^BootstrapTag^NoiseTag), sh.r)
		means := make([]float64, len(members)*resamples)
		idx, pick := make([]int, n), make([]int, n)
		for j := range resamples {
			pools.Fill(idx)
			picks.Fill(pick)
			for k, m := range members {
				draws := sets[m]
				var sum float64
				for x, i := range idx {
					sum += draws[i][pick[x]]
				}
				means[k*resamples+j] = sum / float64(n)
			}
		}
		for k, m := range members {
			out[m] = percentileInterval(means[k*resamples:(k+1)*resamples], lo, hi)
		}
		for dup, orig := range copies {
			out[dup] = out[orig]
		}
	}
	return out
}

// TwoStageStratifiedMeanCIs is TwoStageMeanCIs for a mean over datasets
// (StratifiedMeanCI's stratification, SPEC §5): sets[s][g][i] lists the
// draws of pool i of group (dataset) g. Each resample redraws the pools of
// every group of two or more pools as StratifiedMeanCI does (group g from
// splitmix.New(Seed ^ BootstrapTag ^ (g+1)·splitmix.Gamma)) and a group of
// one pool keeps it; then every pool taken, in group and draw order, gets
// one of its R draws from the group's own second stream
// (splitmix.New(Seed ^ BootstrapTag ^ NoiseTag ^ (g+1)·splitmix.Gamma)) —
// a single pool's noise is drawn too. The resample's value is the mean of
// the groups' means. With every draw of a pool equal to one value this is
// StratifiedMeanCI's interval bit for bit; a single group gives
// TwoStageMeanCIs' interval. Undefined when a group is empty, below two
// pools in total, or when the pools disagree on R.
func (b Bootstrap) TwoStageStratifiedMeanCIs(sets ...[][][]float64) []Interval {
	out := make([]Interval, len(sets))
	b = b.Resolved()
	resamples, tail := b.Resamples, b.TailPerMille
	lo := max(ceilDiv(tail*resamples, 1000), 1)
	hi := min(ceilDiv((1000-tail)*resamples, 1000), resamples)
	for s, groups := range sets {
		total, r := 0, -1
		ok := len(groups) > 0
		for _, g := range groups {
			ok = ok && len(g) > 0
			total += len(g)
			for _, d := range g {
				if r < 0 {
					r = len(d)
				}
				ok = ok && len(d) == r && r > 0
			}
		}
		if !ok || total < 2 {
			continue
		}
		if len(groups) == 1 {
			out[s] = b.TwoStageMeanCIs(groups[0])[0]
			continue
		}
		pools := make([]*splitmix.Indices, len(groups))
		picks := make([]*splitmix.Indices, len(groups))
		idx, pick := make([][]int, len(groups)), make([][]int, len(groups))
		for g, pg := range groups {
			if len(pg) >= 2 {
				pools[g] = splitmix.NewIndices(splitmix.New(b.Seed^BootstrapTag^uint64(g+1)*splitmix.Gamma), len(pg))
				idx[g] = make([]int, len(pg))
			} else {
				idx[g] = []int{0} // a single pool enters every resample
			}
			picks[g] = splitmix.NewIndices(splitmix.New(b.Seed^BootstrapTag^NoiseTag^uint64(g+1)*splitmix.Gamma), r)
			pick[g] = make([]int, len(pg))
		}
		means := make([]float64, resamples)
		for j := range means {
			var macro float64
			for g, pg := range groups {
				if pools[g] != nil {
					pools[g].Fill(idx[g])
				}
				picks[g].Fill(pick[g])
				if pools[g] == nil {
					macro += pg[0][pick[g][0]]
					continue
				}
				var sum float64
				for x, i := range idx[g] {
					sum += pg[i][pick[g][x]]
				}
				macro += sum / float64(len(pg))
			}
			means[j] = macro / float64(len(groups))
		}
		out[s] = percentileInterval(means, lo, hi)
	}
	return out
}
