package metrics

import (
	"sort"
	"testing"
)

// referenceCI is the percentile bootstrap written out independently of
// MeanCI from its documentation: SplitMix64 from state seed ^ tag, each
// output split into its low then high 32-bit half, each half h giving the
// index ⌊h·n/2^32⌋ unless h·n mod 2^32 < 2^32 mod n; 10,000 resample means,
// fully sorted, and the nearest-rank percentiles 2.5 and 97.5 (ranks 250
// and 9750).
func referenceCI(values []float64, seed uint64) (float64, float64) {
	n := uint64(len(values))
	state := seed ^ 0x7472696167652f62
	var halves []uint64
	index := func() int {
		for {
			if len(halves) == 0 {
				state += 0x9E3779B97F4A7C15
				z := state
				z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
				z = (z ^ (z >> 27)) * 0x94D049BB133111EB
				z ^= z >> 31
				halves = []uint64{z & 0xFFFFFFFF, z >> 32}
			}
			h := halves[0]
			halves = halves[1:]
			if (h*n)%(1<<32) >= (1<<32)%n {
				return int(h * n >> 32)
			}
		}
	}
	means := make([]float64, 0, 10000)
	for i := 0; i < 10000; i++ {
		total := 0.0
		for k := 0; k < len(values); k++ {
			total += values[index()]
		}
		means = append(means, total/float64(len(values)))
	}
	sort.Float64s(means)
	return means[250-1], means[9750-1]
}

func TestMeanCIMatchesAReferenceBootstrap(t *testing.T) {
	// A known sample: per-pool η of a cell with a negative outlier.
	sample := make([]float64, 30) // per-pool η of a 30-pool cell, one outlier
	for i := range sample {
		sample[i] = float64((i*37)%19)/19 - 0.2
	}
	sample[7] = -1.4
	for _, seed := range []uint64{0, 1, 20251123} {
		got := Bootstrap{Seed: seed}.MeanCI(sample)
		lo, hi := referenceCI(sample, seed)
		if !got.Defined || got.Lo != lo || got.Hi != hi {
			t.Errorf("seed %d: MeanCI = %+v, reference [%v, %v]", seed, got, lo, hi)
		}
		mean := 0.0
		for _, v := range sample {
			mean += v / float64(len(sample))
		}
		if !(got.Lo < mean && mean < got.Hi) {
			t.Errorf("seed %d: [%v, %v] does not contain the mean %v", seed, got.Lo, got.Hi, mean)
		}
	}
}

func TestMeanCIEdges(t *testing.T) {
	if (Bootstrap{}).MeanCI(nil).Defined || (Bootstrap{}).MeanCI([]float64{0.5}).Defined {
		t.Error("an interval over fewer than two values")
	}
	if ci := (Bootstrap{}).MeanCI([]float64{0.3, 0.3, 0.3}); !ci.Defined || ci.Lo != 0.3 || ci.Hi != 0.3 {
		t.Errorf("constant values: %+v, want [0.3, 0.3]", ci)
	}
	a := Bootstrap{Seed: 5}.MeanCI([]float64{0, 1, 0, 1})
	b := Bootstrap{Seed: 5}.MeanCI([]float64{0, 1, 0, 1})
	c := Bootstrap{Seed: 6, Resamples: 200, TailPerMille: 100}.MeanCI([]float64{0, 1, 0, 1, 0.5, 0.25})
	if a != b || !c.Defined || c.Lo > c.Hi {
		t.Errorf("not reproducible or malformed: %+v %+v %+v", a, b, c)
	}
}

func BenchmarkMeanCI30(b *testing.B) {
	values := make([]float64, 30)
	for i := range values {
		values[i] = float64(i%7) / 7
	}
	for b.Loop() {
		Bootstrap{Seed: 1}.MeanCI(values)
	}
}

func TestStratifiedMeanCI(t *testing.T) {
	a := []float64{0.1, 0.2, 0.3, 0.9}
	b := []float64{-0.5, 0.0, 0.5}
	ci := Bootstrap{Seed: 3}.StratifiedMeanCI([][]float64{a, b})
	mean := ((0.1+0.2+0.3+0.9)/4 + 0) / 2
	if !ci.Defined || !(ci.Lo < mean && mean < ci.Hi) {
		t.Errorf("interval %+v does not contain the mean of means %v", ci, mean)
	}
	if one := (Bootstrap{Seed: 3}).StratifiedMeanCI([][]float64{a}); one != (Bootstrap{Seed: 3}).MeanCI(a) {
		t.Errorf("one group: %+v, want MeanCI's %+v", one, Bootstrap{Seed: 3}.MeanCI(a))
	}
	if (Bootstrap{}).StratifiedMeanCI([][]float64{a, {0.4}}).Defined || (Bootstrap{}).StratifiedMeanCI(nil).Defined {
		t.Error("an interval with a group of fewer than two values")
	}
	// Constant groups give a point interval at their mean of means.
	if c := (Bootstrap{}).StratifiedMeanCI([][]float64{{1, 1}, {0, 0, 0}}); c.Lo != 0.5 || c.Hi != 0.5 {
		t.Errorf("constant groups: %+v", c)
	}
}
