package report

import (
	"runtime"
	"sync"

	"github.com/triage-eval/triage/internal/protocol/metrics"
)

// withIntervals sets every cell's bootstrap intervals, the cells spread over
// the machine's cores (each interval depends only on its own values and the
// seed, so the result does not depend on the order or the split). A cell's
// means over the same pools share their resample draws
// (metrics.Bootstrap.MeanCIs), which gives each the interval it would have
// alone.
func withIntervals(b metrics.Bootstrap, groups ...[]Cell) {
	jobs := make(chan *Cell)
	var wg sync.WaitGroup
	for range max(runtime.GOMAXPROCS(0), 1) {
		wg.Go(func() {
			for c := range jobs {
				p := &c.perPool
				plan := c.planMeans()
				if c.Dataset == AllDatasets {
					cis := b.StratifiedMeanCIs(append([][][]float64{p.etaStrata, p.informativeStrata, p.regretStrata}, p.planStrata[:]...)...)
					c.EtaCI, c.InformativeCI, c.RegretCI = cis[0], cis[1], cis[2]
					for m, dst := range plan {
						dst.CI = cis[3+m]
					}
					continue
				}
				cis := b.MeanCIs(append([][]float64{p.eta, p.informative, p.regret, p.detection, p.waste}, p.plan[:]...)...)
				c.EtaCI, c.InformativeCI, c.RegretCI, c.DetectionCI, c.WasteCI = cis[0], cis[1], cis[2], cis[3], cis[4]
				for m, dst := range plan {
					dst.CI = cis[5+m]
				}
			}
		})
	}
	for _, cells := range groups {
		for i := range cells {
			jobs <- &cells[i]
		}
	}
	close(jobs)
	wg.Wait()
}

// withComparisonIntervals sets every comparison's interval, in parallel.
func withComparisonIntervals(b metrics.Bootstrap, cs []Comparison) {
	jobs := make(chan *Comparison)
	var wg sync.WaitGroup
	for range max(runtime.GOMAXPROCS(0), 1) {
		wg.Go(func() {
			for c := range jobs {
				c.CI = b.MeanCI(c.diffs)
			}
		})
	}
	for i := range cs {
		jobs <- &cs[i]
	}
	close(jobs)
	wg.Wait()
}
