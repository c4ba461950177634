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
