package report

import (
	"runtime"
	"sync"

	"github.com/triage-eval/triage/internal/protocol/metrics"
)

// withIntervals sets every cell's bootstrap intervals, the cells spread over
// the machine's cores (each interval depends only on its own values and the
// seed, so the result does not depend on the order or the split).
func withIntervals(b metrics.Bootstrap, groups ...[]Cell) {
	jobs := make(chan *Cell)
	var wg sync.WaitGroup
	for range max(runtime.GOMAXPROCS(0), 1) {
		wg.Go(func() {
			for c := range jobs {
				if c.Dataset == AllDatasets {
					c.EtaCI = b.StratifiedMeanCI(c.perPool.etaStrata)
					c.InformativeCI = b.StratifiedMeanCI(c.perPool.informativeStrata)
					c.RegretCI = b.StratifiedMeanCI(c.perPool.regretStrata)
					continue
				}
				c.EtaCI = b.MeanCI(c.perPool.eta)
				c.InformativeCI = b.MeanCI(c.perPool.informative)
				c.RegretCI = b.MeanCI(c.perPool.regret)
				c.DetectionCI = b.MeanCI(c.perPool.detection)
				c.WasteCI = b.MeanCI(c.perPool.waste)
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
