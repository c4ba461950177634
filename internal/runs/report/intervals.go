package report

import (
	"iter"
	"runtime"
	"sync"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// withIntervals sets every cell's bootstrap intervals, the cells spread over
// the machine's cores (each interval depends only on its own values and the
// seed, so the result does not depend on the order or the split). The
// means of the cells of one plan — its regimes' cells, adjacent in each
// sorted group — are computed together (metrics.Bootstrap.MeanCIs): those
// over the same pools share their resample draws, and the losses and
// diagnostics, equal under both regimes, are resampled once; each mean
// gets the interval it would have alone. The plan diagnostics get none
// (see PoolMean.CI).
func withIntervals(b metrics.Bootstrap, groups ...[]Cell) {
	jobs := make(chan []Cell)
	var wg sync.WaitGroup
	for range max(runtime.GOMAXPROCS(0), 1) {
		wg.Go(func() {
			for cells := range jobs {
				setIntervals(b, cells)
			}
		})
	}
	for _, cells := range groups {
		for plan := range plans(cells) {
			jobs <- plan
		}
	}
	close(jobs)
	wg.Wait()
}

// plans yields the runs of cells that share a plan (samePlan): its regimes'
// cells, adjacent in each sorted group.
func plans(cells []Cell) iter.Seq[[]Cell] {
	return func(yield func([]Cell) bool) {
		for start := 0; start < len(cells); {
			end := start + 1
			for end < len(cells) && samePlan(cells[start], cells[end]) {
				end++
			}
			if !yield(cells[start:end]) {
				return
			}
			start = end
		}
	}
}

// samePlan reports whether two cells differ in their regime alone.
func samePlan(a, b Cell) bool {
	a.Regime, b.Regime = vocab.Regime(""), vocab.Regime("")
	return a.key() == b.key()
}

// setIntervals sets the intervals of cells, plain or macro cells all.
func setIntervals(b metrics.Bootstrap, cells []Cell) {
	const plain = 5 // η, informative η, R̃, D, W
	if cells[0].Dataset == AllDatasets {
		var sets [][][]float64
		for i := range cells {
			p := &cells[i].perPool
			sets = append(append(sets, p.etaStrata, p.informativeStrata, p.regretStrata), p.planStrata[:numLosses]...)
		}
		cis := b.StratifiedMeanCIs(sets...)
		for i := range cells {
			c := &cells[i]
			ci := cis[i*(3+numLosses):]
			c.EtaCI, c.InformativeCI, c.RegretCI = ci[0], ci[1], ci[2]
			plan := c.planMeans()
			for m, dst := range plan[:numLosses] {
				dst.CI = ci[3+m]
			}
		}
		return
	}
	var sets [][]float64
	for i := range cells {
		p := &cells[i].perPool
		sets = append(append(sets, p.eta, p.informative, p.regret, p.detection, p.waste), p.plan[:numLosses]...)
	}
	cis := b.MeanCIs(sets...)
	for i := range cells {
		c := &cells[i]
		ci := cis[i*(plain+numLosses):]
		c.EtaCI, c.InformativeCI, c.RegretCI, c.DetectionCI, c.WasteCI = ci[0], ci[1], ci[2], ci[3], ci[4]
		plan := c.planMeans()
		for m, dst := range plan[:numLosses] {
			dst.CI = ci[plain+m]
		}
	}
}

// comparisonBatch is how many comparisons withComparisonIntervals computes
// together: consecutive comparisons share a scope, and those over the same
// number of pools share their resample draws.
const comparisonBatch = 16

// withComparisonIntervals sets every comparison's interval, in parallel.
func withComparisonIntervals(b metrics.Bootstrap, cs []Comparison) {
	jobs := make(chan []Comparison)
	var wg sync.WaitGroup
	for range max(runtime.GOMAXPROCS(0), 1) {
		wg.Go(func() {
			for batch := range jobs {
				diffs := make([][]float64, len(batch))
				for i := range batch {
					diffs[i] = batch[i].diffs
				}
				for i, ci := range b.MeanCIs(diffs...) {
					batch[i].CI = ci
				}
			}
		})
	}
	for start := 0; start < len(cs); start += comparisonBatch {
		jobs <- cs[start:min(start+comparisonBatch, len(cs))]
	}
	close(jobs)
	wg.Wait()
}
