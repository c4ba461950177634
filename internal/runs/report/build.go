package report

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"github.com/triage-eval/triage/internal/protocol/metrics"
)

// ExcludedDuplicate is the exclusion reason Build gives a record that repeats
// the pool of an earlier record in the same cell: the first record of a pool
// (in input order) is the one averaged.
const ExcludedDuplicate metrics.Reason = "duplicate"

// AllDatasets is the Dataset of a macro-average over datasets (see
// Report.Macro); it never names a real dataset's cell in Report.Cells.
const AllDatasets = "*"

// storedTolerance is how far a stored η or R̃ may be from the recomputed
// one before the record counts in Cell.StoredMismatch.
const storedTolerance = 1e-9

// Report is the aggregate of a run's score records: one Cell per cell and
// the base accuracy of every solver on every dataset.
type Report struct {
	// Cells are sorted by (model, mode, dataset, α, variant, strategy,
	// regime); see Build.
	Cells []Cell
	// Accuracy is sorted by (model, mode, dataset).
	Accuracy []AccuracyRow
}

// Cell is one cell of SPEC §5: a solver's pools of one dataset at one α
// under one prompt variant, strategy and regime, averaged.
type Cell struct {
	Model, Mode, Dataset string
	Alpha                float64
	Variant, Strategy    string
	Regime               string
	// Pools is the number of records aggregated: Eta.N plus the excluded.
	Pools int
	// Eta is the mean η over the pools with a scored plan.
	Eta metrics.Mean
	// Regret is the mean R̃ over the pools in Eta with V_oracle > 0.
	Regret metrics.Mean
	// Excluded counts the pools left out of both means, per reason, sorted
	// by reason (never nil).
	Excluded []metrics.ReasonCount
	// RegretUndefined counts the pools in Eta left out of Regret because
	// V_oracle = 0: Regret.N + RegretUndefined = Eta.N.
	RegretUndefined int
	// BaseAccuracy is the solver's accuracy on the dataset (Value) over N
	// gradeable items; undefined when no Accuracy with gradeable items was
	// given. For a macro cell it is undefined.
	BaseAccuracy metrics.Mean
	// StoredMismatch counts included records whose stored Eta, Regret or
	// RegretDefined disagree with the values recomputed from Value, Oracle
	// and Random (beyond 1e-9): a sign of stale or inconsistent records.
	StoredMismatch int
}

// AccuracyRow is the base accuracy of one solver on one dataset.
type AccuracyRow struct {
	Model, Mode, Dataset string
	// Correct and Gradeable are summed over the Accuracy entries given for
	// the key.
	Correct, Gradeable int
	// Accuracy is Correct/Gradeable with N = Gradeable; undefined when
	// Gradeable = 0.
	Accuracy metrics.Mean
}

// cellKey identifies a cell. Alpha is kept as its bits so that map lookups
// are exact (and a NaN α still groups).
type cellKey struct {
	model, mode, dataset string
	alpha                uint64
	variant, strategy    string
	regime               string
}

func (c Cell) key() cellKey {
	return cellKey{c.Model, c.Mode, c.Dataset, math.Float64bits(c.Alpha), c.Variant, c.Strategy, c.Regime}
}

func recordKey(r ScoreRecord) cellKey {
	return cellKey{r.Model, r.Mode, r.Dataset, math.Float64bits(r.Alpha), r.Variant, r.Strategy, r.Regime}
}

type accKey struct{ model, mode, dataset string }

// Build aggregates records into cells and attaches base accuracies.
//
// Records are grouped by (model, mode, dataset, α, variant, strategy,
// regime). Within a cell they are ordered by pool index (stably), so the
// means do not depend on the input order; a second record for the same pool
// is excluded as ExcludedDuplicate. A record with a non-empty Excluded
// becomes metrics.Exclude(Excluded); any other is rescored with
// metrics.Score(Value, Oracle, Random), so every report uses one definition
// of η and R̃ whatever wrote the record — the stored Eta and Regret are only
// compared (Cell.StoredMismatch). metrics.Aggregate then gives the means and
// the exclusion counts.
//
// Accuracy entries with the same (model, mode, dataset) are summed. Each
// cell's BaseAccuracy is its (model, mode, dataset) accuracy.
func Build(records []ScoreRecord, acc []Accuracy) Report {
	rep := Report{Cells: []Cell{}, Accuracy: []AccuracyRow{}}

	accIdx := map[accKey]int{}
	for _, a := range acc {
		k := accKey{a.Model, a.Mode, a.Dataset}
		i, ok := accIdx[k]
		if !ok {
			i = len(rep.Accuracy)
			accIdx[k] = i
			rep.Accuracy = append(rep.Accuracy, AccuracyRow{Model: a.Model, Mode: a.Mode, Dataset: a.Dataset})
		}
		rep.Accuracy[i].Correct += a.Correct
		rep.Accuracy[i].Gradeable += a.Gradeable
	}
	for i := range rep.Accuracy {
		row := &rep.Accuracy[i]
		if row.Gradeable > 0 {
			row.Accuracy = metrics.Mean{Value: float64(row.Correct) / float64(row.Gradeable), N: row.Gradeable, Defined: true}
		}
	}
	slices.SortFunc(rep.Accuracy, func(a, b AccuracyRow) int {
		return cmp.Or(cmp.Compare(a.Model, b.Model), cmp.Compare(a.Mode, b.Mode), cmp.Compare(a.Dataset, b.Dataset))
	})

	accOf := map[accKey]metrics.Mean{}
	for _, a := range rep.Accuracy {
		accOf[accKey{a.Model, a.Mode, a.Dataset}] = a.Accuracy
	}
	groups := map[cellKey][]ScoreRecord{}
	var keys []cellKey
	for _, r := range records {
		k := recordKey(r)
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], r)
	}
	for _, k := range keys {
		rep.Cells = append(rep.Cells, buildCell(groups[k], accOf[accKey{k.model, k.mode, k.dataset}]))
	}
	slices.SortFunc(rep.Cells, compareCells)
	return rep
}

// buildCell aggregates one cell's records (all with the same key).
func buildCell(recs []ScoreRecord, acc metrics.Mean) Cell {
	recs = slices.Clone(recs)
	slices.SortStableFunc(recs, func(a, b ScoreRecord) int { return cmp.Compare(a.Pool, b.Pool) })
	first := recs[0]
	cell := Cell{
		Model: first.Model, Mode: first.Mode, Dataset: first.Dataset, Alpha: first.Alpha,
		Variant: first.Variant, Strategy: first.Strategy, Regime: first.Regime,
		BaseAccuracy: acc,
	}
	scores := make([]metrics.PoolScore, 0, len(recs))
	seen := map[int]bool{}
	for _, r := range recs {
		var s metrics.PoolScore
		switch {
		case seen[r.Pool]:
			s = metrics.Exclude(ExcludedDuplicate)
		case r.Excluded != "":
			s = metrics.Exclude(metrics.Reason(r.Excluded))
		default:
			s = metrics.Score(r.Value, r.Oracle, r.Random)
			if storedDiffers(r, s) {
				cell.StoredMismatch++
			}
		}
		seen[r.Pool] = true
		s.Pool = strconv.Itoa(r.Pool)
		scores = append(scores, s)
	}
	agg := metrics.Aggregate(scores)
	cell.Pools = agg.Pools
	cell.Eta = agg.Eta
	cell.Regret = agg.Regret
	cell.Excluded = agg.Excluded
	cell.RegretUndefined = agg.RegretUndefined
	return cell
}

// storedDiffers reports whether r's stored scores disagree with s.
func storedDiffers(r ScoreRecord, s metrics.PoolScore) bool {
	if !near(r.Eta, s.Eta) || r.RegretDefined != s.RegretDefined {
		return true
	}
	return s.RegretDefined && !near(r.Regret, s.Regret)
}

func near(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return a == b || math.Abs(a-b) <= storedTolerance*max(1, math.Abs(a), math.Abs(b))
}

// compareCells is the report's cell order: model, mode, dataset, α,
// variant, strategy, then regime (U, E, then others alphabetically).
func compareCells(a, b Cell) int {
	return cmp.Or(
		cmp.Compare(a.Model, b.Model),
		cmp.Compare(a.Mode, b.Mode),
		cmp.Compare(a.Dataset, b.Dataset),
		cmp.Compare(a.Alpha, b.Alpha),
		cmp.Compare(a.Variant, b.Variant),
		cmp.Compare(a.Strategy, b.Strategy),
		compareRegimes(a.Regime, b.Regime),
	)
}

// compareRegimes orders U before E (the paper's order), then other regimes
// alphabetically.
func compareRegimes(a, b string) int {
	rank := func(s string) int {
		switch s {
		case "U":
			return 0
		case "E":
			return 1
		}
		return 2
	}
	return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(a, b))
}
