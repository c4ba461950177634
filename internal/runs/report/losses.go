package report

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// decompositionTolerance is how far a record's stored losses may be from
// the identities selection + order = R̃_U and selection + order +
// enforcement = R̃_E (R̃ recomputed, as Build does) before the record counts
// in Cell.DecompositionMismatch (SPEC §5; issue 24: 1e-12).
const decompositionTolerance = 1e-12

// PoolMean is the mean of one per-pool quantity over a cell's pools, with
// its bootstrap interval: a loss of the regret decomposition or a plan
// diagnostic (SPEC §5).
type PoolMean struct {
	// Mean is the mean over the cell's pools where the quantity is defined
	// (Mean.N of them). For a macro cell (Dataset AllDatasets) it is the
	// unweighted mean of the per-dataset means, as Regret (see
	// Report.Macro), Mean.N the pools behind them.
	Mean metrics.Mean
	// CI is Mean's percentile bootstrap interval (Report.Bootstrap's level,
	// 95% by default), undefined below two pools; for a macro cell it is
	// stratified over the datasets of Mean. Only the losses have one: a
	// plan diagnostic's CI is always undefined, since its interval would
	// cost as much as a loss's (the report's time is bounded: issue 24,
	// docs/performance.md) for a number that describes the plan rather
	// than measures the planner.
	CI metrics.Interval
	// Missing, for a macro cell, names the datasets in scope whose cell
	// has no defined Mean (or no cell), left out of Mean; nil for a plain
	// cell. A dataset of Cell.OracleZero is in neither.
	Missing []string
}

// planMetric numbers the per-pool quantities a cell averages besides η,
// R̃, D and W: the regret decomposition's losses and the plan diagnostics.
type planMetric int

const (
	selectionLoss planMetric = iota
	orderLoss
	enforcementLoss
	precision
	recall
	costForecast
	underAllocation
	numPlanMetrics
)

// numLosses is how many planMetrics, the first ones, are the losses of the
// regret decomposition (the rest are diagnostics).
const numLosses = int(enforcementLoss) + 1

// planMetricNames name the plan metrics in pools.csv, cells.csv and
// cells.json, in planMetric order.
var planMetricNames = [numPlanMetrics]string{"selection_loss", "order_loss", "enforcement_loss", "precision", "recall", "cost_forecast", "under_allocation"}

// planMeans returns the cell's PoolMean of each planMetric.
func (c *Cell) planMeans() [numPlanMetrics]*PoolMean {
	return [numPlanMetrics]*PoolMean{&c.Selection, &c.Order, &c.Enforcement, &c.Precision, &c.Recall, &c.CostForecast, &c.UnderAllocation}
}

// addPlanMetrics adds an included, usable record's regret decomposition
// and plan diagnostics to the cell's per-pool values, s being its scores
// as Build recomputed them; it counts a pool of Regret without a
// decomposition in Undecomposed and a record whose losses break its
// regime's identity in DecompositionMismatch.
func (c *Cell) addPlanMetrics(r ScoreRecord, s metrics.PoolScore) {
	p := &c.perPool.plan
	decomposed := r.Selection != nil && r.Order != nil && r.Enforcement != nil
	switch {
	case !s.RegretDefined:
		if r.Selection != nil || r.Order != nil || r.Enforcement != nil {
			c.DecompositionMismatch++
		}
	case !decomposed:
		c.Undecomposed++
	default:
		p[selectionLoss] = append(p[selectionLoss], *r.Selection)
		p[orderLoss] = append(p[orderLoss], *r.Order)
		p[enforcementLoss] = append(p[enforcementLoss], *r.Enforcement)
		if !identityHolds(r, s.Regret) {
			c.DecompositionMismatch++
		}
	}
	p[precision] = appendDefined(p[precision], r.Precision)
	p[recall] = appendDefined(p[recall], r.Recall)
	p[costForecast] = appendDefined(p[costForecast], r.CostForecast)
	p[underAllocation] = appendDefined(p[underAllocation], r.UnderAllocation)
}

// identityHolds reports whether a decomposed record's losses add up to
// regret, its regime's R̃ (SPEC §5): selection + order in regime U,
// selection + order + enforcement in regime E; a record of another regime
// has no identity to check.
func identityHolds(r ScoreRecord, regret float64) bool {
	var sum float64
	switch vocab.Regime(r.Regime) {
	case vocab.Advisory:
		sum = *r.Selection + *r.Order
	case vocab.Enforced:
		sum = *r.Selection + *r.Order + *r.Enforcement
	default:
		return true
	}
	return math.Abs(sum-regret) <= decompositionTolerance
}

// appendDefined appends *x to xs when x is not nil.
func appendDefined(xs []float64, x *float64) []float64 {
	if x == nil {
		return xs
	}
	return append(xs, *x)
}

// setPlanMeans sets the means of the decomposition and the diagnostics
// from the per-pool values (intervals come later, with withIntervals).
func (c *Cell) setPlanMeans() {
	for m, dst := range c.planMeans() {
		var sum float64
		for _, x := range c.perPool.plan[m] {
			sum += x
		}
		dst.Mean = meanOf(sum, len(c.perPool.plan[m]))
	}
}

// Loss names a term of the regret decomposition (SPEC §5).
type Loss string

// The regret decomposition's terms.
const (
	SelectionLoss   Loss = "selection"
	OrderLoss       Loss = "order"
	EnforcementLoss Loss = "enforcement"
)

// DominantLoss returns the loss with the largest mean share of the value
// the solver's plans lost under regime E at the headline α — each of
// Selection, Order and Enforcement divided by their sum, the mean R̃_E of
// the decomposed pools — and that share: the first of rankedLosses. ok is
// false when the decomposition is undefined (no pool with V_oracle > 0
// carries one) or nothing was lost at the tables' precision (the sum
// rounds to 0.000, or is below 0: a share of it would be any loss divided
// by almost nothing).
func (row HeadlineRow) DominantLoss() (loss Loss, share float64, ok bool) {
	ranked, total, defined := row.rankedLosses()
	if !defined || !sharesDefined(total) {
		return "", 0, false
	}
	return ranked[0].loss, ranked[0].value / total, true
}

// lossValue is one mean loss of a HeadlineRow's regret decomposition.
type lossValue struct {
	loss  Loss
	value float64
}

// rankedLosses returns the row's three mean losses, the largest first, and
// their sum R̃_E; ok is false when one is undefined. Losses are compared as
// the tables print them (3 decimals), and those that print alike keep
// SPEC §5's order: selection, order, enforcement. This is the one place
// that order is decided: the summary lists the losses in it and
// DominantLoss names the first.
func (row HeadlineRow) rankedLosses() (ranked []lossValue, total float64, ok bool) {
	ms := []struct {
		loss Loss
		mean metrics.Mean
	}{{SelectionLoss, row.Selection.Mean}, {OrderLoss, row.Order.Mean}, {EnforcementLoss, row.Enforcement.Mean}}
	for _, m := range ms {
		if !m.mean.Defined {
			return nil, 0, false
		}
		ranked = append(ranked, lossValue{m.loss, m.mean.Value})
		total += m.mean.Value
	}
	slices.SortStableFunc(ranked, func(a, b lossValue) int { return cmp.Compare(shown(b.value), shown(a.value)) })
	return ranked, total, true
}

// sharesDefined reports whether losses can be shown as shares of their sum
// total (R̃_E): when it is above 0 at the tables' precision. A sum that
// prints as 0.000 would give shares of thousands of percent to losses
// that print as 0.000 too.
func sharesDefined(total float64) bool { return total > 0 && fmt3(total) != fmt3(0) }

// shown is x as the tables print it (fmt3), for comparisons that must
// agree with what the reader sees.
func shown(x float64) float64 {
	v, _ := strconv.ParseFloat(fmt3(x), 64) // fmt3 prints a number ("NaN" and "±Inf" included)
	return v
}
