package report

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/protocol/metrics"
)

// paperNoiseSpec is a paper-scale run with k = 5 samples per item: 6
// solvers (3 models × 2 modes), 8 datasets of 5 pools of 30 items, 20 α,
// strategy llm under 4 variants and 6 reference strategies (10 plans per
// pool and α), regimes U and E: 19,200 cells, 96,000 records, 48,000
// plans. Later samples flip y with probability 0.1 and spread costs by up
// to ±30%; the random reference has the run default's 1000 orders.
func paperNoiseSpec() noiseRunSpec {
	spec := noiseRunSpec{
		models: []string{"m1", "m2", "m3"}, modes: []string{"extended", "standard"},
		pools: 5, items: 30, k: 5, flip: 0.1, spread: 0.3, orders: 1000, seed: 11,
		scopes: [][2]string{{"llm", "default"}, {"llm", "A"}, {"llm", "B"}, {"llm", "C"}, {"random", "-"}, {"shortest_first", "-"},
			{"all_in_order", "-"}, {"population", "-"}, {"self_feasibility", "-"}, {"self_cost", "-"}},
	}
	for d := range 8 {
		spec.datasets = append(spec.datasets, fmt.Sprintf("dataset%d", d))
	}
	for a := range 20 {
		spec.alphas = append(spec.alphas, float64(a+1)/20)
	}
	return spec
}

// BenchmarkNoiseIntervalsPaperScale measures, in one run, the noise-aware
// intervals of a paper-scale report with k = 5 (issue 25 item 6: at most 3×
// the pool-only intervals) against the pool-only intervals of the same
// cells: eta-only-s is the pool-only η interval of every cell (the
// interval the noise-aware one sits beside), pool-only-s every pool-only
// interval withIntervals computes for the cells (η, informative η, R̃, D,
// W and the three losses), noise-s the noise-aware intervals with their
// draws (R = DefaultNoiseDraws per pool, M = DefaultNoiseRandomOrders). The ratios are
// noise-s over each, in CPU time (and in wall time).
func BenchmarkNoiseIntervalsPaperScale(b *testing.B) {
	recs, acc, in := noiseRun(paperNoiseSpec())
	rep := BuildWith(recs, acc, Options{})
	noise := buildNoise(in)
	if len(rep.Cells) != 19_200 || noise == nil || noise.K != 5 {
		b.Fatalf("%d cells, noise %v", len(rep.Cells), noise != nil)
	}
	// CPU time of the process (user + system, every goroutine and the
	// garbage collector) is what each phase is charged: on a shared
	// machine it does not move with the other processes' load, as wall
	// time does. Wall times are reported too.
	var etaOnly, poolOnly, noisy, etaWall, poolWall, noiseWall time.Duration
	runs := 0
	for b.Loop() {
		cells := slices.Clone(rep.Cells)
		c0, t0 := cpuTime(b), time.Now()
		etaIntervals(rep.Bootstrap, cells)
		c1, t1 := cpuTime(b), time.Now()
		withIntervals(rep.Bootstrap, cells)
		c2, t2 := cpuTime(b), time.Now()
		withNoiseIntervals(rep.Bootstrap, in, noise, rep.Alpha, cells)
		c3, t3 := cpuTime(b), time.Now()
		etaOnly, poolOnly, noisy = etaOnly+c1-c0, poolOnly+c2-c1, noisy+c3-c2
		etaWall, poolWall, noiseWall = etaWall+t1.Sub(t0), poolWall+t2.Sub(t1), noiseWall+t3.Sub(t2)
		runs++
		for _, c := range cells {
			if c.NoiseUnmatched != 0 || c.EtaNoiseCI.Defined != c.EtaCI.Defined {
				b.Fatalf("%v: unmatched %d, %+v beside %+v", c.key(), c.NoiseUnmatched, c.EtaNoiseCI, c.EtaCI)
			}
		}
	}
	n := float64(runs)
	b.ReportMetric(etaOnly.Seconds()/n, "eta-only-cpu-s")
	b.ReportMetric(poolOnly.Seconds()/n, "pool-only-cpu-s")
	b.ReportMetric(noisy.Seconds()/n, "noise-cpu-s")
	b.ReportMetric(noisy.Seconds()/etaOnly.Seconds(), "noise/eta-only-cpu")
	b.ReportMetric(noisy.Seconds()/poolOnly.Seconds(), "noise/pool-only-cpu")
	b.ReportMetric(noiseWall.Seconds()/etaWall.Seconds(), "noise/eta-only-wall")
	b.ReportMetric(noiseWall.Seconds()/poolWall.Seconds(), "noise/pool-only-wall")
}

// cpuTime is the process's CPU time so far, user and system.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// etaIntervals computes the pool-only η interval of every cell, the U and
// E cells of a plan together (as withIntervals batches them), spread over
// the cores as withIntervals and withNoiseIntervals spread theirs.
func etaIntervals(boot metrics.Bootstrap, cells []Cell) {
	jobs := make(chan []Cell)
	var wg sync.WaitGroup
	for range max(runtime.GOMAXPROCS(0), 1) {
		wg.Go(func() {
			for plan := range jobs {
				sets := make([][]float64, len(plan))
				for i := range plan {
					sets[i] = plan[i].perPool.eta
				}
				for i, ci := range boot.MeanCIs(sets...) {
					plan[i].EtaCI = ci
				}
			}
		})
	}
	for plan := range plans(cells) {
		jobs <- plan
	}
	close(jobs)
	wg.Wait()
}
