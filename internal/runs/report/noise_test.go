package report

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/pool"
	"github.com/triage-eval/triage/internal/protocol/randomref"
	"github.com/triage-eval/triage/internal/testkit/golden"
)

func TestItemNoise(t *testing.T) {
	g := func(c int64, y bool) Sample { return Sample{Cost: c, Correct: y, Gradeable: true} }
	failed := Sample{}
	tests := []struct {
		name           string
		samples        []Sample
		flip, cv       float64
		flipN, cvN     int
		flipDef, cvDef bool
		gradeable      int
	}{
		{"one sample: nothing defined", []Sample{g(100, true)}, 0, 0, 0, 0, false, false, 1},
		// costs 100, 200, 300: mean 200, sample s.d. 100.
		{"one flip in two repeats", []Sample{g(100, true), g(200, false), g(300, true)}, 0.5, 0.5, 2, 3, true, true, 3},
		// the failed repeat is neither a flip nor a cost.
		{"failed repeat left out", []Sample{g(100, false), failed, g(100, true)}, 1, 0, 1, 2, true, true, 2},
		// sample 1 failed: no flip rate; the costs 50 and 150 still vary.
		{"failed sample 1", []Sample{failed, g(50, true), g(150, true)}, 0, math.Sqrt(5000) / 100, 0, 2, false, true, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := itemNoise(ItemKey{}, tt.samples)
			if got.Samples != len(tt.samples) || got.Gradeable != tt.gradeable {
				t.Errorf("samples %d gradeable %d, want %d %d", got.Samples, got.Gradeable, len(tt.samples), tt.gradeable)
			}
			if got.FlipRate != (metrics.Mean{Value: tt.flip, N: tt.flipN, Defined: tt.flipDef}) {
				t.Errorf("flip rate %+v, want %v over %d", got.FlipRate, tt.flip, tt.flipN)
			}
			if got.CostCV.Defined != tt.cvDef || got.CostCV.N != tt.cvN || math.Abs(got.CostCV.Value-tt.cv) > 1e-12 {
				t.Errorf("cost CV %+v, want %v over %d", got.CostCV, tt.cv, tt.cvN)
			}
		})
	}
}

func TestSolverNoiseMeans(t *testing.T) {
	g := func(c int64, y bool) Sample { return Sample{Cost: c, Correct: y, Gradeable: true} }
	in := &NoiseInput{Samples: ItemSamples{
		{"m", "standard", "aime", "a"}: {g(100, true), g(100, false)}, // flip 1, CV 0
		{"m", "standard", "aime", "b"}: {g(100, true), g(300, true)},  // flip 0, CV √20000/200
		{"m", "standard", "aime", "c"}: {g(100, true)},                // neither
		{"m", "standard", "gpqa", "a"}: {g(10, true), g(10, true), g(10, true)},
	}}
	n := buildNoise(in)
	if n == nil || n.K != 3 || len(n.Items) != 4 || len(n.Solvers) != 2 {
		t.Fatalf("noise %+v", n)
	}
	aime := n.Solvers[0]
	if aime.Dataset != "aime" || aime.Items != 3 || aime.K != 2 {
		t.Errorf("aime row %+v", aime)
	}
	if aime.FlipRate != (metrics.Mean{Value: 0.5, N: 2, Defined: true}) {
		t.Errorf("aime flip %+v", aime.FlipRate)
	}
	if want := math.Sqrt(20000) / 200 / 2; aime.CostCV.N != 2 || math.Abs(aime.CostCV.Value-want) > 1e-12 {
		t.Errorf("aime CV %+v, want %v", aime.CostCV, want)
	}
	if gpqa := n.Solvers[1]; gpqa.K != 3 || gpqa.FlipRate.Value != 0 || gpqa.CostCV.Value != 0 || !gpqa.CostCV.Defined {
		t.Errorf("gpqa row %+v", gpqa)
	}
	if buildNoise(&NoiseInput{Samples: ItemSamples{{"m", "s", "d", "p"}: {g(1, true)}}}) != nil || buildNoise(nil) != nil {
		t.Error("one sample per item: want no noise part")
	}
}

// TestNoiseIdenticalSamples: when every sample repeats sample 1, every
// draw is the ground truth and the noise-aware interval is the pool-only
// one, bit for bit — with the shortcut for such pools and without it (the
// full recomputation of B, V_oracle, V_random and V_M from the input).
func TestNoiseIdenticalSamples(t *testing.T) {
	spec := smallNoiseSpec()
	spec.identical = true
	recs, acc, in := noiseRun(spec)
	in.Draws = 16
	for _, recompute := range []bool{false, true} {
		rep := BuildWith(recs, acc, Options{Noise: in})
		if rep.Noise == nil {
			t.Fatal("no noise part with k = 3")
		}
		if recompute {
			withNoiseIntervalsOpt(rep.Bootstrap, in, rep.Noise, rep.Alpha, true, rep.Cells)
			rep.withMacroNoiseIntervals()
		}
		macros := 0
		for _, m := range rep.Macros {
			if m.Alpha != rep.Alpha {
				if m.EtaNoiseCI.Defined {
					t.Errorf("%v: a noise-aware interval away from the headline α", m.key())
				}
				continue
			}
			if m.EtaNoiseCI != m.EtaCI || m.NoiseUnmatched != 0 {
				t.Errorf("recompute=%v macro %v: noise-aware %+v (unmatched %d), pool-only %+v", recompute, m.key(), m.EtaNoiseCI, m.NoiseUnmatched, m.EtaCI)
			}
			if m.EtaCI.Defined {
				macros++
			}
		}
		if macros == 0 {
			t.Fatal("no macro cell at the headline α has an interval")
		}
		defined := 0
		for _, c := range rep.Cells {
			if c.NoiseUnmatched != 0 {
				t.Errorf("%v: %d unmatched records", c.key(), c.NoiseUnmatched)
			}
			if c.EtaNoiseCI != c.EtaCI {
				t.Errorf("recompute=%v %v: noise-aware %+v, pool-only %+v", recompute, c.key(), c.EtaNoiseCI, c.EtaCI)
			}
			if c.EtaCI.Defined {
				defined++
			}
		}
		if defined == 0 {
			t.Fatal("no cell has an interval: the test checks nothing")
		}
	}
}

// TestNoiseWidens: with flips and spread costs the draws move η, the
// intervals differ from the pool-only ones, and every record matches its
// input.
func TestNoiseWidens(t *testing.T) {
	recs, acc, in := noiseRun(smallNoiseSpec())
	in.Draws = 32
	rep := BuildWith(recs, acc, Options{Noise: in})
	differ := 0
	for _, c := range rep.Cells {
		if c.NoiseUnmatched != 0 {
			t.Errorf("%v: %d unmatched records", c.key(), c.NoiseUnmatched)
		}
		if c.EtaCI.Defined != c.EtaNoiseCI.Defined {
			t.Errorf("%v: pool-only %+v, noise-aware %+v", c.key(), c.EtaCI, c.EtaNoiseCI)
		}
		if c.EtaNoiseCI != c.EtaCI {
			differ++
		}
	}
	if differ == 0 {
		t.Error("noise moved no interval")
	}
	for _, m := range rep.Macros {
		if m.Alpha == rep.Alpha && m.EtaCI.Defined != m.EtaNoiseCI.Defined {
			t.Errorf("macro %v: pool-only %+v, noise-aware %+v", m.key(), m.EtaCI, m.EtaNoiseCI)
		}
	}
}

// TestNoiseUnmatched: a plan missing from the input, or a stored V_M the
// input's sample 1 does not reproduce, leaves the cell without a
// noise-aware interval and counts the record.
func TestNoiseUnmatched(t *testing.T) {
	recs, acc, in := noiseRun(smallNoiseSpec())
	in.Draws = 8
	target := recs[0] // m1 standard aime pool 0 α = 0.25 llm default U
	delete(in.Plans, PlanKey{Model: target.Model, Mode: target.Mode, Pool: PoolKey{Dataset: target.Dataset, Pool: 0}, Alpha: target.Alpha, Variant: target.Variant, Strategy: target.Strategy})
	for i := range recs {
		r := &recs[i]
		if r.Model == "m2" && r.Dataset == "gpqa" && r.Pool == 1 && r.Alpha == 0.5 && r.Strategy == "random" && r.Regime == "E" {
			r.Value += 1 // not what the plan gives on sample 1
		}
	}
	rep := BuildWith(recs, acc, Options{Noise: in})
	unmatched := 0
	for _, c := range rep.Cells {
		llm := c.Model == "m1" && c.Dataset == "aime" && c.Alpha == 0.25 && c.Strategy == "llm"
		changed := c.Model == "m2" && c.Dataset == "gpqa" && c.Alpha == 0.5 && c.Strategy == "random" && c.Regime == "E"
		want := 0
		if llm || changed {
			want = 1
		}
		if c.NoiseUnmatched != want || (want > 0) == c.EtaNoiseCI.Defined {
			t.Errorf("%v: unmatched %d, interval %+v; want %d unmatched", c.key(), c.NoiseUnmatched, c.EtaNoiseCI, want)
		}
		unmatched += c.NoiseUnmatched
	}
	if unmatched != 3 {
		t.Errorf("%d unmatched records, want 3 (the plan's U and E, the changed record)", unmatched)
	}
}

// TestNoiseHandWorked: pools of two items a (cost 10, y = 1) and b (cost
// 10, y = 0) at α = 0.5 (B = 10) with the plan [b, a]. Sample 2 of a has y
// = 0. In a draw keeping a's y = 1, V_oracle = 1, V_random = f (the share
// of the M orders that put a first: the stored estimate, moved by 0) and
// V_U = 0 (b runs, a no longer fits): η = −f/(1 − f). In a draw taking y =
// 0, nothing is solvable: V_oracle = V_random = 0 (the orders see 0 − f,
// added to the stored f) and η = 1 (D1). Each pool's draws are these two
// values; the pool-only interval over two such pools (both at −f/(1 − f)
// on sample 1) is that point, the noise-aware 95% interval spans
// [−f/(1 − f), 1], and with 35% tails (each end has a chance near ¼) it is
// the midpoint.
func TestNoiseHandWorked(t *testing.T) {
	const orders, seed = 64, 3
	in := &NoiseInput{Samples: ItemSamples{}, Pools: map[PoolKey][]PoolProblem{}, Plans: map[PlanKey][]PlanStep{}, Draws: 400, RandomOrders: orders, RandomSeed: seed}
	f := 0.0
	var recs []ScoreRecord
	for p := range 2 {
		pk := PoolKey{Dataset: "d", Pool: p}
		a, b := "a"+string(rune('0'+p)), "b"+string(rune('0'+p))
		in.Pools[pk] = []PoolProblem{{Dataset: "d", ProblemID: a}, {Dataset: "d", ProblemID: b}}
		in.Samples[ItemKey{"m", "standard", "d", a}] = []Sample{{10, true, true}, {10, false, true}}
		in.Samples[ItemKey{"m", "standard", "d", b}] = []Sample{{10, false, true}, {10, false, true}}
		in.Plans[PlanKey{Model: "m", Mode: "standard", Pool: pk, Alpha: 0.5, Variant: "default", Strategy: "llm"}] = []PlanStep{{b, 10}, {a, 10}}
		est, err := randomref.MonteCarlo(context.Background(), []pool.Item{{ID: a, Cost: 10, Value: 1, Correct: true}, {ID: b, Cost: 10, Value: 1}}, []int64{10}, orders, seed)
		if err != nil {
			t.Fatal(err)
		}
		f = est[0].Mean
		if f <= 0.2 || f >= 0.8 {
			t.Fatalf("f = %v: the hand-worked values assume a mixed order set", f)
		}
		recs = append(recs, ScoreRecord{Model: "m", Mode: "standard", Dataset: "d", Pool: p, Alpha: 0.5, Variant: "default", Strategy: "llm", Regime: "U",
			Value: 0, Oracle: 1, Random: f, Budget: 10, PoolSize: 2})
	}
	low := -f / (1 - f)
	for _, tt := range []struct {
		tail   int
		lo, hi float64
	}{{25, low, 1}, {350, (low + 1) / 2, (low + 1) / 2}} {
		rep := BuildWith(recs, nil, Options{Noise: in, Bootstrap: metrics.Bootstrap{TailPerMille: tt.tail}})
		c := rep.Cells[0]
		if c.NoiseUnmatched != 0 {
			t.Fatalf("%d unmatched", c.NoiseUnmatched)
		}
		if c.EtaCI != (metrics.Interval{Lo: low, Hi: low, Defined: true}) {
			t.Errorf("tail %d‰: pool-only %+v, want the point %v", tt.tail, c.EtaCI, low)
		}
		if !c.EtaNoiseCI.Defined || math.Abs(c.EtaNoiseCI.Lo-tt.lo) > 1e-12 || math.Abs(c.EtaNoiseCI.Hi-tt.hi) > 1e-12 {
			t.Errorf("tail %d‰: noise-aware %+v, want [%v, %v]", tt.tail, c.EtaNoiseCI, tt.lo, tt.hi)
		}
	}
}

// TestNoiseOneSampleChangesNothing: a noise input with one sample per item
// gives the report Build gives without it, file for file.
func TestNoiseOneSampleChangesNothing(t *testing.T) {
	spec := smallNoiseSpec()
	spec.k = 1
	recs, acc, in := noiseRun(spec)
	with, without := BuildWith(recs, acc, Options{Noise: in}), BuildWith(recs, acc, Options{})
	if with.Noise != nil {
		t.Fatal("noise part with k = 1")
	}
	for _, f := range files {
		var a, b bytes.Buffer
		if err := f.Write(with, &a); err != nil {
			t.Fatal(err)
		}
		if err := f.Write(without, &b); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s differs with a one-sample noise input", f.Name)
		}
	}
	if !slices.Equal(with.WrittenFiles(), FileNames()) {
		t.Errorf("files %v, want %v", with.WrittenFiles(), FileNames())
	}
}

// TestNoiseGolden writes the report of a small run with k = 3 samples per
// item and compares every file, the noise files and the summary included,
// with testdata/golden/noise/<name>; run with -update to rewrite them.
func TestNoiseGolden(t *testing.T) {
	spec := noiseRunSpec{
		models: []string{"m1", "m2"}, modes: []string{"standard"}, datasets: []string{"aime", "gpqa"},
		pools: 3, items: 4, alphas: []float64{0.5, 1}, scopes: [][2]string{{"llm", "default"}},
		k: 3, flip: 0.25, spread: 0.4, orders: 50, seed: 3,
	}
	recs, acc, in := noiseRun(spec)
	in.Draws, in.RandomOrders = 16, 50
	rep := BuildWith(recs, acc, Options{Noise: in})
	dir := filepath.Join(t.TempDir(), "out")
	if err := rep.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range rep.WrittenFiles() {
		t.Run(name, func(t *testing.T) {
			got, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			golden.File(t, filepath.Join("testdata", "golden", "noise", name), got)
		})
	}
	var buf bytes.Buffer
	if err := WriteMarkdownTable(&buf, rep.SummaryTable(nil)); err != nil {
		t.Fatal(err)
	}
	golden.File(t, filepath.Join("testdata", "golden", "noise", "summary.md"), buf.Bytes())
}

// TestNoiseInjectedPool: an injection cell's pools are found by (base,
// source, ratio, pool), and an unsolvable problem keeps y = 0 in every
// draw although its grader said correct: were it scored, sample 1's V_M
// would be 1, not the stored 0, and the records would be unmatched.
func TestNoiseInjectedPool(t *testing.T) {
	const orders, seed = 32, 1
	ratio := 0.5
	in := &NoiseInput{Samples: ItemSamples{}, Pools: map[PoolKey][]PoolProblem{}, Plans: map[PlanKey][]PlanStep{}, Draws: 8, RandomOrders: orders, RandomSeed: seed}
	var recs []ScoreRecord
	for p := range 2 {
		pk := PoolKey{Dataset: "gpqa", Source: "gpqa-abstain", Ratio: ratio, Pool: p}
		a, u := "a"+string(rune('0'+p)), "u"+string(rune('0'+p))
		in.Pools[pk] = []PoolProblem{{Dataset: "gpqa", ProblemID: a}, {Dataset: "gpqa-abstain", ProblemID: u, Unsolvable: true}}
		in.Samples[ItemKey{"m", "standard", "gpqa", a}] = []Sample{{10, true, true}, {10, true, true}}
		in.Samples[ItemKey{"m", "standard", "gpqa-abstain", u}] = []Sample{{10, true, true}, {20, true, true}}
		in.Plans[PlanKey{Model: "m", Mode: "standard", Pool: pk, Alpha: 0.5, Variant: "default", Strategy: "llm"}] = []PlanStep{{u, 10}, {a, 10}}
		est, err := randomref.MonteCarlo(context.Background(), []pool.Item{{ID: a, Cost: 10, Value: 1, Correct: true}, {ID: u, Cost: 10, Value: 1}}, []int64{10}, orders, seed)
		if err != nil {
			t.Fatal(err)
		}
		for _, regime := range []string{"U", "E"} {
			recs = append(recs, ScoreRecord{Model: "m", Mode: "standard", Dataset: "gpqa", Source: "gpqa-abstain", Ratio: &ratio, Pool: p, Alpha: 0.5,
				Variant: "default", Strategy: "llm", Regime: regime, Value: 0, Oracle: 1, Random: est[0].Mean, Budget: 10, PoolSize: 2, Injected: 1})
		}
	}
	rep := BuildWith(recs, nil, Options{Noise: in})
	if len(rep.Injection) != 2 {
		t.Fatalf("%d injection cells", len(rep.Injection))
	}
	for _, c := range rep.Injection {
		if c.NoiseUnmatched != 0 || !c.EtaNoiseCI.Defined {
			t.Errorf("%v: unmatched %d, noise-aware %+v", c.key(), c.NoiseUnmatched, c.EtaNoiseCI)
		}
	}
}
