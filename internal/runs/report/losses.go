package report

import (
	"github.com/triage-eval/triage/internal/protocol/metrics"
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
	// stratified over the datasets of Mean.
	CI metrics.Interval
	// Missing, for a macro cell, names the datasets in scope whose cell
	// has no defined Mean (or no cell), left out of Mean; nil for a plain
	// cell. A dataset of Cell.OracleZero is in neither.
	Missing []string
}
