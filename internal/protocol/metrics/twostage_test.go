package metrics

import (
	"math/rand/v2"
	"sort"
	"testing"
)

// referenceTwoStageCI is the two-stage bootstrap written out independently
// of TwoStageMeanCIs from its documentation: the pool indices of
// referenceIndices from seed ^ BootstrapTag, the picks from seed ^
// BootstrapTag ^ NoiseTag, one pick per drawn pool, 10,000 resample means
// fully sorted, nearest-rank percentiles 2.5 and 97.5.
func referenceTwoStageCI(draws [][]float64, seed uint64) (float64, float64) {
	n, r := len(draws), len(draws[0])
	index := referenceIndices(seed^0x7472696167652f62, uint64(n))
	pick := referenceIndices(seed^0x7472696167652f62^0x7472696167652f6e, uint64(r))
	means := make([]float64, 0, 10000)
	for range 10000 {
		idx := make([]int, n)
		for k := range idx {
			idx[k] = index()
		}
		total := 0.0
		for _, i := range idx {
			total += draws[i][pick()]
		}
		means = append(means, total/float64(n))
	}
	sort.Float64s(means)
	return means[250-1], means[9750-1]
}

func TestTwoStageMeanCIs(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	random := func(n, r int) [][]float64 {
		out := make([][]float64, n)
		for i := range out {
			out[i] = make([]float64, r)
			for k := range out[i] {
				out[i][k] = rng.Float64()*2 - 1
			}
		}
		return out
	}
	tests := []struct {
		name string
		sets [][][]float64
		seed uint64
	}{
		{"one set", [][][]float64{random(5, 7)}, 0},
		{"sets of two shapes share nothing wrongly", [][][]float64{random(5, 7), random(3, 7), random(5, 2), random(5, 7)}, 42},
		{"a pool drawn once", [][][]float64{random(2, 1)}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Bootstrap{Seed: tt.seed}.TwoStageMeanCIs(tt.sets...)
			for i, s := range tt.sets {
				lo, hi := referenceTwoStageCI(s, tt.seed)
				if !got[i].Defined || got[i].Lo != lo || got[i].Hi != hi {
					t.Errorf("set %d: got %+v, want [%v, %v]", i, got[i], lo, hi)
				}
			}
		})
	}
}

// TestTwoStageConstantDrawsIsMeanCI: when every draw of a pool is its
// value, the two-stage interval is MeanCI's, bit for bit.
func TestTwoStageConstantDrawsIsMeanCI(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{2, 3, 5, 30} {
		for _, r := range []int{1, 4, 200} {
			values := make([]float64, n)
			draws := make([][]float64, n)
			for i := range values {
				values[i] = rng.Float64()*3 - 2
				draws[i] = make([]float64, r)
				for k := range draws[i] {
					draws[i][k] = values[i]
				}
			}
			b := Bootstrap{Seed: uint64(n * r)}
			if got, want := b.TwoStageMeanCIs(draws)[0], b.MeanCI(values); got != want {
				t.Errorf("n=%d R=%d: got %+v, want MeanCI %+v", n, r, got, want)
			}
		}
	}
}

// TestTwoStageHandWorked: two pools whose draws are {0, 1} each. A
// resample mean is (x + y)/2 with x, y independent fair bits: 0, 1/2 and 1
// with probabilities 1/4, 1/2, 1/4. A 95% interval is [0, 1]; a 40%
// interval (30% in each tail) is the point 1/2, since 1/4 < 0.3. With
// 10,000 resamples the counts at 0 and 1 are 2,500 ± 43 (one s.d.), far
// from the ranks 250 and 3,000 that decide.
func TestTwoStageHandWorked(t *testing.T) {
	draws := [][]float64{{0, 1}, {1, 0}}
	tests := []struct {
		tail   int
		lo, hi float64
	}{
		{25, 0, 1},
		{300, 0.5, 0.5},
	}
	for _, tt := range tests {
		got := Bootstrap{TailPerMille: tt.tail}.TwoStageMeanCIs(draws)[0]
		if got != (Interval{Lo: tt.lo, Hi: tt.hi, Defined: true}) {
			t.Errorf("tail %d‰: got %+v, want [%v, %v]", tt.tail, got, tt.lo, tt.hi)
		}
	}
	// The pool-only interval of the same pools (both 1/2 on average) is
	// the point 1/2: the noise is what widens it.
	if got := (Bootstrap{}).MeanCI([]float64{0.5, 0.5}); got != (Interval{Lo: 0.5, Hi: 0.5, Defined: true}) {
		t.Errorf("pool-only: %+v", got)
	}
}

func TestTwoStageUndefined(t *testing.T) {
	got := Bootstrap{}.TwoStageMeanCIs(nil, [][]float64{{1, 2}}, [][]float64{{1, 2}, {3}}, [][]float64{{}, {}})
	for i, ci := range got {
		if ci.Defined {
			t.Errorf("set %d: %+v, want undefined", i, ci)
		}
	}
}

// TestTwoStageStratified: constant draws give StratifiedMeanCI's interval
// bit for bit (a single-pool group included), a single group gives
// TwoStageMeanCIs', and a single-pool group's noise is drawn.
func TestTwoStageStratified(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	constant := func(values []float64, r int) [][]float64 {
		out := make([][]float64, len(values))
		for i, v := range values {
			out[i] = make([]float64, r)
			for k := range out[i] {
				out[i][k] = v
			}
		}
		return out
	}
	groups := [][]float64{{0.1, 0.5, -0.3}, {0.9}, {0.2, 0.4, 1, 0.7, 0.1}}
	b := Bootstrap{Seed: 5}
	var draws [][][]float64
	for _, g := range groups {
		draws = append(draws, constant(g, 9))
	}
	if got, want := b.TwoStageStratifiedMeanCIs(draws)[0], b.StratifiedMeanCI(groups); got != want {
		t.Errorf("constant draws: %+v, want StratifiedMeanCI %+v", got, want)
	}
	one := [][]float64{{rng.Float64(), rng.Float64()}, {rng.Float64(), rng.Float64()}}
	if got, want := b.TwoStageStratifiedMeanCIs([][][]float64{one})[0], b.TwoStageMeanCIs(one)[0]; got != want {
		t.Errorf("one group: %+v, want %+v", got, want)
	}
	// Two single-pool groups with draws {0, 1}: the pool-only interval is
	// the point 1/2, the two-stage one [0, 1].
	got := b.TwoStageStratifiedMeanCIs([][][]float64{{{0, 1}}, {{1, 0}}})[0]
	if got != (Interval{Lo: 0, Hi: 1, Defined: true}) {
		t.Errorf("single-pool groups: %+v, want [0, 1]", got)
	}
	for i, ci := range b.TwoStageStratifiedMeanCIs(nil, [][][]float64{{{1}}}, [][][]float64{{{1}}, {}}, [][][]float64{{{1, 2}}, {{3}}}) {
		if ci.Defined {
			t.Errorf("set %d: %+v, want undefined", i, ci)
		}
	}
}
