package metrics

import (
	"sort"
	"testing"
)

// referenceIndices is the index stream of the bootstrap written out
// independently of splitmix from its documentation: SplitMix64 from the
// given state, each output split into its low then high 32-bit half, each
// half h giving the index ⌊h·n/2^32⌋ unless h·n mod 2^32 < 2^32 mod n.
func referenceIndices(state, n uint64) func() int {
	var halves []uint64
	return func() int {
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
}

// referenceCI is the percentile bootstrap written out independently of
// MeanCI: the stream of referenceIndices from state seed ^ tag, 10,000
// resample means, fully sorted, and the nearest-rank percentiles 2.5 and
// 97.5 (ranks 250 and 9750).
func referenceCI(values []float64, seed uint64) (float64, float64) {
	index := referenceIndices(seed^0x7472696167652f62, uint64(len(values)))
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

// referenceStratifiedCI is the stratified bootstrap of SPEC §5 written out
// independently of StratifiedMeanCI from its documentation: group i of two
// or more values resampled from its own stream (state seed ^ tag ^
// (i+1)·γ), a group of one value taken as is, each resample the mean of the
// group means; nearest-rank percentiles 2.5 and 97.5 of 10,000 resamples.
func referenceStratifiedCI(groups [][]float64, seed uint64) (float64, float64) {
	streams := make([]func() int, len(groups))
	for i, g := range groups {
		if len(g) > 1 {
			streams[i] = referenceIndices(seed^0x7472696167652f62^uint64(i+1)*0x9E3779B97F4A7C15, uint64(len(g)))
		}
	}
	means := make([]float64, 0, 10000)
	for range 10000 {
		macro := 0.0
		for i, g := range groups {
			if streams[i] == nil {
				macro += g[0]
				continue
			}
			total := 0.0
			for range g {
				total += g[streams[i]()]
			}
			macro += total / float64(len(g))
		}
		means = append(means, macro/float64(len(groups)))
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
	for name, groups := range map[string][][]float64{
		"no group": nil, "one value": {{0.4}}, "an empty group": {a, {}},
	} {
		if ci := (Bootstrap{}).StratifiedMeanCI(groups); ci.Defined {
			t.Errorf("%s: interval %+v, want none", name, ci)
		}
	}
	// Constant groups give a point interval at their mean of means.
	if c := (Bootstrap{}).StratifiedMeanCI([][]float64{{1, 1}, {0, 0, 0}}); c.Lo != 0.5 || c.Hi != 0.5 {
		t.Errorf("constant groups: %+v", c)
	}
	// Two single-pool groups: two pools in total, nothing to resample.
	if c := (Bootstrap{}).StratifiedMeanCI([][]float64{{1}, {0}}); !c.Defined || c.Lo != 0.5 || c.Hi != 0.5 {
		t.Errorf("single-pool groups: %+v, want the point [0.5, 0.5]", c)
	}
}

// TestStratifiedMeanCIWithSinglePoolGroups: a group of one pool enters
// every resample as is (SPEC §5), checked two ways. Against a reference
// written from the documentation, for several layouts; and against MeanCI:
// with groups {g, {c}}, each resample is (mean of g's resample + c) / 2, a
// monotone map of MeanCI's resample means from the same stream, so the
// interval is exactly MeanCI's mapped.
func TestStratifiedMeanCIWithSinglePoolGroups(t *testing.T) {
	g := []float64{0.9, -0.3, 0.4, 0.1, 1, -1.2, 0.05}
	layouts := map[string][][]float64{
		"single last":   {g, {0.7}},
		"single first":  {{-0.25}, g, {0.2, 0.6, -0.1}},
		"two singles":   {{1}, g[:3], {0}},
		"all resampled": {g, g[2:5]},
	}
	for name, groups := range layouts {
		for _, seed := range []uint64{0, 42} {
			got := Bootstrap{Seed: seed}.StratifiedMeanCI(groups)
			lo, hi := referenceStratifiedCI(groups, seed)
			if !got.Defined || got.Lo != lo || got.Hi != hi {
				t.Errorf("%s, seed %d: %+v, reference [%v, %v]", name, seed, got, lo, hi)
			}
		}
	}
	const c = 0.7
	for _, seed := range []uint64{0, 7, 20251123} {
		got := Bootstrap{Seed: seed}.StratifiedMeanCI([][]float64{g, {c}})
		// Group 0's stream is MeanCI's at seed ^ γ.
		one := Bootstrap{Seed: seed ^ 0x9E3779B97F4A7C15}.MeanCI(g)
		if want := (Interval{Lo: (one.Lo + c) / 2, Hi: (one.Hi + c) / 2, Defined: true}); got != want {
			t.Errorf("seed %d: %+v, want MeanCI's mapped %+v", seed, got, want)
		}
		if got.Hi-got.Lo >= one.Hi-one.Lo {
			t.Errorf("seed %d: a fixed group did not halve the spread: %+v vs %+v", seed, got, one)
		}
	}
}

func TestBootstrapResolved(t *testing.T) {
	tests := []struct {
		in, want Bootstrap
	}{
		{Bootstrap{}, Bootstrap{Resamples: DefaultResamples, TailPerMille: DefaultTailPerMille}},
		{Bootstrap{Resamples: -1, TailPerMille: 500, Seed: 3}, Bootstrap{Resamples: DefaultResamples, TailPerMille: DefaultTailPerMille, Seed: 3}},
		{Bootstrap{Resamples: 200, TailPerMille: 5, Seed: 9}, Bootstrap{Resamples: 200, TailPerMille: 5, Seed: 9}},
	}
	for _, tt := range tests {
		if got := tt.in.Resolved(); got != tt.want {
			t.Errorf("%+v.Resolved() = %+v, want %+v", tt.in, got, tt.want)
		}
	}
	values := []float64{1, 4, 2, 8, 5}
	if a, b := (Bootstrap{Seed: 1}).MeanCI(values), (Bootstrap{Seed: 1}).Resolved().MeanCI(values); a != b {
		t.Errorf("resolving changes the interval: %v, %v", a, b)
	}
}

func TestBootstrapLevel(t *testing.T) {
	for _, tt := range []struct {
		tail           int
		level, percent float64
	}{{25, 0.95, 95}, {5, 0.99, 99}, {50, 0.9, 90}} {
		b := Bootstrap{TailPerMille: tt.tail}
		if b.Level() != tt.level || b.LevelPercent() != tt.percent {
			t.Errorf("tail %d‰: level %v, %v%%; want %v, %v%%", tt.tail, b.Level(), b.LevelPercent(), tt.level, tt.percent)
		}
	}
}

// TestMeanCIsMatchMeanCI checks that the shared-draw intervals are MeanCI's
// and StratifiedMeanCI's, bit for bit, whatever mix of lengths and shapes
// one call holds.
func TestMeanCIsMatchMeanCI(t *testing.T) {
	b := Bootstrap{Resamples: 500, Seed: 3}
	tests := []struct {
		name string
		sets [][]float64
	}{
		{"none", nil},
		{"one", [][]float64{{0.1, 0.5, 0.9}}},
		{"same length", [][]float64{{0.1, 0.5, 0.9}, {1, 0, 1}, {-2, 3, 0.25}}},
		{"mixed lengths and short sets", [][]float64{{0.1, 0.5, 0.9}, {}, {4}, {1, 0}, {1, 2, 3, 4, 5}, {0.3, 0.3, 0.6}}},
		{"equal sets", [][]float64{{1, 2, 3}, {1, 2, 3}, {0, 1, 0}, {1, 2, 3}, {0, 1, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := b.MeanCIs(tt.sets...)
			for i, s := range tt.sets {
				if want := b.MeanCI(s); got[i] != want {
					t.Errorf("set %d: MeanCIs = %+v, MeanCI = %+v", i, got[i], want)
				}
			}
		})
	}
	strata := []struct {
		name string
		sets [][][]float64
	}{
		{"none", nil},
		{"same shape", [][][]float64{{{0.1, 0.5}, {0.9, 1, 0}}, {{1, 0}, {0, 0, 1}}}},
		{"equal sets", [][][]float64{{{0.1, 0.5}, {0.9, 1, 0}}, {{0.1, 0.5}, {0.9, 1, 0}}, {{0.1, 0.5}, {0.9, 1, 1}}}},
		{"mixed shapes", [][][]float64{
			{{0.1, 0.5}, {0.9, 1, 0}}, {{7}, {1, 2}}, {{0.2, 0.4, 0.8}}, {{1}}, {{1}, {}}, {{3}, {4}},
			{{1, 0}, {0, 0, 1}}, {{5}, {2, 3}}, {{0.5, 0.5, 0.1}},
		}},
	}
	for _, tt := range strata {
		t.Run("stratified "+tt.name, func(t *testing.T) {
			got := b.StratifiedMeanCIs(tt.sets...)
			for i, s := range tt.sets {
				if want := b.StratifiedMeanCI(s); got[i] != want {
					t.Errorf("set %d: StratifiedMeanCIs = %+v, StratifiedMeanCI = %+v", i, got[i], want)
				}
			}
		})
	}
}
