package report

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"github.com/triage-eval/triage/internal/platform/version"
	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/vocab"
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
	// Cells are sorted by (model, mode, dataset, α, strategy, variant,
	// regime); see Build. They are the plain pools' cells.
	Cells []Cell
	// Injection are the cells of the unsolvable-injection pools (Source
	// set), sorted like Cells with (Source, Ratio) after Dataset.
	Injection []Cell
	// Records are the score records built from, in cell order and then pool
	// order (PoolsCSV lists them).
	Records []ScoreRecord
	// Comparisons are the paired differences of η between every two solvers
	// in every (dataset, α, strategy, variant, regime); see Comparison.
	Comparisons []Comparison
	// Macros are the means over datasets (Dataset AllDatasets; see Macro),
	// sorted like Cells.
	Macros []Cell
	// Accuracy is sorted by (model, mode, dataset).
	Accuracy []AccuracyRow
	// Bootstrap is how the intervals were computed, defaults resolved
	// (metrics.Bootstrap.Resolved): what cells.json, the figures' captions
	// and the page state.
	Bootstrap metrics.Bootstrap
	// Alpha is the headline α of the summary and the bar figures: the α
	// of Cells nearest to Options.Alpha (HeadlineAlpha when 0), the smaller
	// of two equally near; Options.Alpha itself when there are no cells.
	Alpha float64
	// HeadlineRatio is the injection ratio of the summary's D / W: 0.5
	// when Injection has it, else its largest ratio below 1; 0 without
	// injection cells.
	HeadlineRatio float64
	// HeadlineVariant is the llm strategy's variant in the summary and the
	// comparison tables (SPEC §5): vocab.Default when the report has llm
	// cells under it, else the first llm variant in vocab.CompareVariants
	// order; "" when the report has no llm cell.
	HeadlineVariant vocab.Variant
	// Scopes are the (strategy, variant) pairs of Cells in
	// CompareStrategyVariants order: one set of main tables each.
	Scopes []StrategyVariant
	// HeadlineScopes are the pairs the summary, the comparison tables and
	// the "Why plans lose value" tables show: the llm strategy under
	// HeadlineVariant when the report has llm cells, else every reference
	// strategy of Scopes but the partial-information references (which
	// the self-knowledge table sets beside them), unless there is no other.
	HeadlineScopes []StrategyVariant
	// KnowledgeScope is the strategy whose η_U the self-knowledge table
	// (and figure 7) sets beside the partial-information references
	// (vocab.PartialReferences) of the same solver and dataset: the first
	// pair of HeadlineScopes that is not a partial reference — the llm
	// strategy under HeadlineVariant when the report has llm cells; the
	// zero value when there is none.
	KnowledgeScope StrategyVariant
	// FigureScopes are the pairs figures 1–3 are drawn for: every llm
	// pair of Scopes that measured something (a cell with a defined mean
	// η) when there is one, else every pair of Scopes, so that a run whose
	// llm plans were all unparseable draws its reference strategies;
	// InjectionFigureScopes the same rule over Injection (figure 4).
	FigureScopes, InjectionFigureScopes []StrategyVariant
	// Version is the build that wrote the report; the zero value leaves it
	// out of cells.json.
	Version version.Info
	// Builds are the builds that touched the run, one line per build and
	// command (first used first); nil leaves them out of cells.json.
	Builds []string
	// DistinctBuilds is how many builds Builds names (a build that ran
	// several commands counts once).
	DistinctBuilds int
	// Noise is the measurement noise of the run's Phase 0 (SPEC §9): nil
	// unless Options.Noise gave some item more than one sample, and every
	// output leaves it (and the cells' noise-aware intervals) out then.
	Noise *Noise
}

// Cell is one cell of SPEC §5: a solver's pools of one dataset at one α
// under one prompt variant, strategy and regime, averaged.
type Cell struct {
	Model, Mode, Dataset string
	// Source and Ratio are set for an injection cell: Dataset's pools with
	// unsolvable problems of Source at ratio Ratio.
	Source   string
	Ratio    float64
	Alpha    float64
	Variant  vocab.Variant
	Strategy vocab.Strategy
	Regime   vocab.Regime
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
	// ShortPools counts the cell's pools that are their partition's short
	// last pool; Dropped sums, over the cell's pools, the problems left out
	// for want of gradeable ground truth.
	ShortPools, Dropped int
	// RandomSEMax is the largest standard error of a random reference among
	// the pools averaged (Value 0 for exact references), N the pools it is
	// over; undefined when no pool was averaged.
	RandomSEMax metrics.Mean
	// Degenerate counts the pools in Eta that are degenerate (SPEC §5,
	// metrics.Classify): D1 (V_oracle = 0) and D2 (V_oracle = V_random > 0),
	// whose η is set by convention. Informative is the mean η over the other
	// pools of Eta, InformativeCI its interval: Informative.N +
	// Degenerate.Total() = Eta.N.
	Degenerate    metrics.DegenerateCounts
	Informative   metrics.Mean
	InformativeCI metrics.Interval
	// Missing, for a macro cell (Dataset AllDatasets), lists the datasets in
	// scope where this solver has no defined mean η, so that Eta averages
	// the others (see Report.Macro); RegretMissing likewise for Regret, and
	// InformativeMissing the datasets of Eta without an informative pool,
	// left out of Informative.
	Missing, RegretMissing, InformativeMissing []string
	// OracleZero, for a macro cell, names the datasets whose scored pools
	// are all D1 for this solver (V_oracle = 0: nothing solvable fits the
	// budget): left out of Eta, Regret and Informative (SPEC §5), and not
	// listed in Missing.
	OracleZero []string
	// SinglePool, for a macro cell, names the datasets of Eta with a single
	// pool with a value, and the pools of each left out of its mean: EtaCI's
	// stratified resampling takes that pool as is.
	SinglePool []SinglePoolDataset
	// Detection is the mean D over the pools in Eta whose U is non-empty,
	// Waste the mean W over the pools in Eta (injection cells; SPEC §5).
	Detection, Waste metrics.Mean
	// EtaCI, RegretCI, DetectionCI and WasteCI are the 95% percentile
	// bootstrap intervals of the four means over the cell's pools (SPEC §5;
	// undefined below two pools). A macro cell's EtaCI, RegretCI and
	// InformativeCI are stratified over its datasets (see Report.Macro).
	EtaCI, RegretCI, DetectionCI, WasteCI metrics.Interval
	// EtaNoiseCI is the noise-aware interval of Eta (SPEC §9, Report.Noise
	// set): the two-stage bootstrap over the cell's pools and, within each,
	// R draws of every item's (c, y) from its samples (see
	// docs/reports.md); undefined below two pools and when NoiseUnmatched >
	// 0. A macro cell has one at the headline α (Report.Alpha, the
	// summary's), stratified over its datasets as EtaCI is, none at other
	// α; its NoiseUnmatched sums its datasets'.
	EtaNoiseCI metrics.Interval
	// NoiseUnmatched counts the records of Eta whose pool or plan the
	// noise input lacks, or whose B, V_oracle or V_M recomputed from the
	// input's sample 1 disagree with the stored ones: the input is not
	// the run's, so the cell gets no noise-aware interval.
	NoiseUnmatched int
	// Selection, Order and Enforcement are the regret decomposition of
	// SPEC §5, each loss divided by V_oracle: selection (V_oracle − V_S),
	// order (V_S − V_U) and enforcement (V_U − V_E, signed), averaged over
	// the pools of Regret (V_oracle > 0) whose records carry all three.
	// The decomposition belongs to the plan, so a pool's U and E records
	// store the same losses and a solver's U and E cells show the same
	// means; pool by pool Selection + Order = R̃_U and Selection + Order +
	// Enforcement = R̃_E (see DecompositionMismatch).
	Selection, Order, Enforcement PoolMean
	// Undecomposed counts the pools of Regret whose records carry no
	// decomposition (stored by a binary from before records carried it):
	// Selection.Mean.N + Undecomposed = Regret.N for a plain cell; summed
	// over datasets for a macro cell.
	Undecomposed int
	// DecompositionMismatch counts the included records whose stored
	// losses break their regime's identity beyond 1e-12 against the R̃
	// Build recomputes — Selection + Order ≠ R̃_U in a U record, Selection +
	// Order + Enforcement ≠ R̃_E in an E record — or that carry losses
	// where R̃ is undefined: like StoredMismatch, a sign of stale or
	// inconsistent records. Such records are still averaged.
	DecompositionMismatch int
	// Precision, Recall, CostForecast and UnderAllocation are the plan
	// diagnostics of SPEC §5 (|S ∩ Y| / |S|, |S ∩ Y| / |Y|, the median of
	// log₂(a_i / c_i) over S, and the share of S ∩ Y with a_i < c_i),
	// each averaged over the pools of Eta whose records define it, without
	// an interval (see PoolMean.CI); they too belong to the plan, so U and
	// E cells agree.
	Precision, Recall, CostForecast, UnderAllocation PoolMean

	// perPool holds the values averaged, by pool, for intervals and paired
	// comparisons.
	perPool perPool
}

// SinglePoolDataset is a dataset of a mean over datasets (a macro cell)
// where the solver has a single pool with a value, which the stratified
// interval takes as it is (it has no spread to resample). The dataset may
// have had more pools: Excluded counts, by reason, those left out of its
// mean (the dataset cell's Excluded; empty when its only pool is the one).
type SinglePoolDataset struct {
	Dataset  string
	Excluded []metrics.ReasonCount
}

// perPool is what a cell averaged, pool by pool, in pool order.
type perPool struct {
	// etaPools are the pools whose η values eta lists; informative,
	// regret, detection and waste list the other values averaged.
	etaPools []int
	// noise are the records of eta, for the noise-aware interval;
	// noiseDraws their draws of η, kept for the cells at the headline α
	// (their macro cells' noise-aware intervals).
	noise      []noiseRec
	noiseDraws [][]float64
	// etaDatasets, for a macro cell, names the dataset of each stratum
	// of etaStrata.
	etaDatasets                                []string
	eta, informative, regret, detection, waste []float64
	// plan lists the values of each plan metric averaged (in
	// planMetric order): the decomposed pools' losses (the same pools for
	// the three), and each diagnostic over the pools that define it;
	// planStrata, for a macro cell, the per-dataset values of each.
	plan       [numPlanMetrics][]float64
	planStrata [numPlanMetrics][][]float64
	// etaStrata, informativeStrata and regretStrata are, for a macro
	// cell, the per-dataset values its means average over.
	etaStrata, informativeStrata, regretStrata [][]float64
}

// AccuracyRow is the base accuracy of one solver on one dataset.
type AccuracyRow struct {
	Model, Mode, Dataset string
	// Correct and Gradeable are summed over the Accuracy entries given for
	// the key.
	Correct, Gradeable int
	// Unsolvable, LuckyGuesses and PublicTestsOnly likewise (see
	// Accuracy).
	Unsolvable, LuckyGuesses, PublicTestsOnly int
	// Accuracy is Correct/Gradeable with N = Gradeable; undefined when
	// Gradeable = 0.
	Accuracy metrics.Mean
}

// UnsolvableOnly returns the datasets of rows whose gradeable items are all
// unsolvable for every solver (injection sources): their accuracy is 0 by
// construction.
func UnsolvableOnly(rows []AccuracyRow) map[string]bool {
	notOnly := map[string]bool{}
	for _, a := range rows {
		if a.Gradeable == 0 || a.Unsolvable < a.Gradeable {
			notOnly[a.Dataset] = true
		}
	}
	only := map[string]bool{}
	for _, a := range rows {
		if !notOnly[a.Dataset] {
			only[a.Dataset] = true
		}
	}
	return only
}

// cellKey identifies a cell. Alpha is kept as its bits so that map lookups
// are exact (and a NaN α still groups).
type cellKey struct {
	model, mode, dataset string
	alpha                uint64
	variant              vocab.Variant
	strategy             vocab.Strategy
	regime               vocab.Regime
	source               string
	ratio                uint64
}

func (c Cell) key() cellKey {
	return cellKey{c.Model, c.Mode, c.Dataset, math.Float64bits(c.Alpha), c.Variant, c.Strategy, c.Regime, c.Source, math.Float64bits(c.Ratio)}
}

func recordKey(r ScoreRecord) cellKey {
	k := cellKey{model: r.Model, mode: r.Mode, dataset: r.Dataset, alpha: math.Float64bits(r.Alpha), variant: vocab.Variant(r.Variant), strategy: vocab.Strategy(r.Strategy), regime: vocab.Regime(r.Regime)}
	if r.Source != "" && r.Ratio != nil {
		k.source, k.ratio = r.Source, math.Float64bits(*r.Ratio)
	}
	return k
}

type accKey struct{ model, mode, dataset string }

// Build aggregates records into cells and attaches base accuracies.
//
// Records are grouped by (model, mode, dataset, α, variant, strategy,
// regime). Within a cell they are ordered by pool index (stably), so the
// means do not depend on the input order; a second record for the same pool
// is excluded as ExcludedDuplicate. A record with a non-empty Excluded
// becomes metrics.Exclude(Excluded); any other is rescored from Value,
// Oracle and Random with planscore.Score, so every report uses one
// definition of η and R̃ whatever wrote the record — the stored Eta and
// Regret are only compared (Cell.StoredMismatch). metrics.Aggregate then gives the means and
// the exclusion counts.
//
// Accuracy entries with the same (model, mode, dataset) are summed. Each
// cell's BaseAccuracy is its (model, mode, dataset) accuracy.
func Build(records []ScoreRecord, acc []Accuracy) Report {
	return BuildWith(records, acc, Options{})
}

// Options adjust Build.
type Options struct {
	// Bootstrap configures the confidence intervals; its zero value is the
	// SPEC's 95% interval over 10,000 resamples with seed 0.
	Bootstrap metrics.Bootstrap
	// Alpha is the headline α asked for (`triage report --alpha`); 0
	// means HeadlineAlpha. The report's nearest α is used (Report.Alpha).
	Alpha float64
	// Noise, when some item has more than one sample, adds the
	// measurement-noise part (Report.Noise, Cell.EtaNoiseCI; SPEC §9).
	// Nil, or one sample per item, builds the report without it.
	Noise *NoiseInput
}

// BuildWith is Build with options.
//
// Besides the cells it resolves, once, every setting its renderers need
// (the tables, the summary, the figures and the HTML page decide none of
// them): Bootstrap with its defaults, the headline α, injection ratio and
// variant, and the strategy-variant pairs each part shows, in order. A
// Report is a value to read: changing its cells afterwards leaves these
// settings stale.
func BuildWith(records []ScoreRecord, acc []Accuracy, opts Options) Report {
	rep := Report{Cells: []Cell{}, Injection: []Cell{}, Accuracy: []AccuracyRow{}, Bootstrap: opts.Bootstrap.Resolved()}

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
		rep.Accuracy[i].Unsolvable += a.Unsolvable
		rep.Accuracy[i].LuckyGuesses += a.LuckyGuesses
		rep.Accuracy[i].PublicTestsOnly += a.PublicTestsOnly
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
	rep.Records = slices.Clone(records)
	slices.SortStableFunc(rep.Records, compareRecords)
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
		c := buildCell(groups[k], accOf[accKey{k.model, k.mode, k.dataset}])
		if k.source != "" {
			rep.Injection = append(rep.Injection, c)
		} else {
			rep.Cells = append(rep.Cells, c)
		}
	}
	slices.SortFunc(rep.Cells, compareCells)
	slices.SortFunc(rep.Injection, compareCells)
	rep.resolve(opts.Alpha)
	rep.buildMacros()
	rep.buildComparisons()
	withIntervals(rep.Bootstrap, rep.Cells, rep.Injection, rep.Macros)
	withComparisonIntervals(rep.Bootstrap, rep.Comparisons)
	if rep.Noise = buildNoise(opts.Noise); rep.Noise != nil {
		withNoiseIntervals(rep.Bootstrap, opts.Noise, rep.Noise, rep.Alpha, rep.Cells, rep.Injection)
		rep.withMacroNoiseIntervals()
	}
	return rep
}

// buildCell aggregates one cell's records (all with the same key).
func buildCell(recs []ScoreRecord, acc metrics.Mean) Cell {
	recs = slices.Clone(recs)
	slices.SortStableFunc(recs, func(a, b ScoreRecord) int { return cmp.Compare(a.Pool, b.Pool) })
	first := recs[0]
	cell := Cell{
		Model: first.Model, Mode: first.Mode, Dataset: first.Dataset, Alpha: first.Alpha,
		Variant: vocab.Variant(first.Variant), Strategy: vocab.Strategy(first.Strategy), Regime: vocab.Regime(first.Regime),
		BaseAccuracy: acc, Source: first.Source,
	}
	if first.Ratio != nil {
		cell.Ratio = *first.Ratio
	}
	var dSum, wSum float64
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
			s = rescore(r)
			if storedDiffers(r, s) {
				cell.StoredMismatch++
			}
		}
		if s.Excluded == "" && metrics.Usable(s) {
			cell.RandomSEMax = maxOf(cell.RandomSEMax, metrics.Mean{Value: r.RandomStderr, N: 1, Defined: true})
			cell.perPool.etaPools = append(cell.perPool.etaPools, r.Pool)
			cell.perPool.eta = append(cell.perPool.eta, s.Eta)
			cell.perPool.noise = append(cell.perPool.noise, noiseRec{pool: r.Pool, value: r.Value, oracle: r.Oracle, random: r.Random, budget: r.Budget})
			if s.Degenerate == metrics.Informative {
				cell.perPool.informative = append(cell.perPool.informative, s.Eta)
			}
			if s.RegretDefined {
				cell.perPool.regret = append(cell.perPool.regret, s.Regret)
			}
			cell.addPlanMetrics(r, s)
			if r.Detection != nil {
				dSum += *r.Detection
				cell.Detection.N++
				cell.perPool.detection = append(cell.perPool.detection, *r.Detection)
			}
			if r.Waste != nil {
				wSum += *r.Waste
				cell.Waste.N++
				cell.perPool.waste = append(cell.perPool.waste, *r.Waste)
			}
		}
		if !seen[r.Pool] {
			cell.Dropped += r.Dropped
			if r.Short {
				cell.ShortPools++
			}
		}
		seen[r.Pool] = true
		s.Pool = strconv.Itoa(r.Pool)
		scores = append(scores, s)
	}
	cell.setPlanMeans()
	cell.Detection = meanOf(dSum, cell.Detection.N)
	cell.Waste = meanOf(wSum, cell.Waste.N)
	agg := metrics.Aggregate(scores)
	cell.Pools = agg.Pools
	cell.Eta = agg.Eta
	cell.Degenerate = agg.Degenerate
	cell.Informative = agg.Informative
	cell.Regret = agg.Regret
	cell.Excluded = agg.Excluded
	cell.RegretUndefined = agg.RegretUndefined
	return cell
}

// storedDiffers reports whether r's stored scores disagree with s.
func storedDiffers(r ScoreRecord, s metrics.PoolScore) bool {
	if r.Eta == nil || !near(*r.Eta, s.Eta) || r.RegretDefined != s.RegretDefined {
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

// compareRecords orders records as their cells, then by pool.
func compareRecords(a, b ScoreRecord) int {
	var ra, rb float64
	if a.Ratio != nil {
		ra = *a.Ratio
	}
	if b.Ratio != nil {
		rb = *b.Ratio
	}
	return cmp.Or(
		cmp.Compare(a.Model, b.Model), cmp.Compare(a.Mode, b.Mode), cmp.Compare(a.Dataset, b.Dataset),
		cmp.Compare(a.Source, b.Source), cmp.Compare(ra, rb), cmp.Compare(a.Alpha, b.Alpha),
		vocab.CompareStrategies(vocab.Strategy(a.Strategy), vocab.Strategy(b.Strategy)), vocab.CompareVariants(vocab.Variant(a.Variant), vocab.Variant(b.Variant)),
		vocab.CompareRegimes(vocab.Regime(a.Regime), vocab.Regime(b.Regime)), cmp.Compare(a.Pool, b.Pool),
	)
}

// maxOf is the larger of two defined values, N summed; an undefined one is
// ignored (used for RandomSEMax).
func maxOf(a, b metrics.Mean) metrics.Mean {
	switch {
	case !a.Defined:
		return b
	case !b.Defined:
		return a
	}
	return metrics.Mean{Value: max(a.Value, b.Value), N: a.N + b.N, Defined: true}
}

// meanOf is sum/n as a Mean, undefined when n = 0.
func meanOf(sum float64, n int) metrics.Mean {
	if n == 0 {
		return metrics.Mean{}
	}
	return metrics.Mean{Value: sum / float64(n), N: n, Defined: true}
}

// compareCells is the report's cell order: model, mode, dataset (then
// source and ratio), α, strategy (llm first), variant, then regime (U, E,
// then others alphabetically).
func compareCells(a, b Cell) int {
	return cmp.Or(
		cmp.Compare(a.Model, b.Model),
		cmp.Compare(a.Mode, b.Mode),
		cmp.Compare(a.Dataset, b.Dataset),
		cmp.Compare(a.Source, b.Source),
		cmp.Compare(a.Ratio, b.Ratio),
		cmp.Compare(a.Alpha, b.Alpha),
		vocab.CompareStrategies(a.Strategy, b.Strategy),
		vocab.CompareVariants(a.Variant, b.Variant),
		vocab.CompareRegimes(a.Regime, b.Regime),
	)
}
