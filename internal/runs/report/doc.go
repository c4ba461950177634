// Package report turns a run's stored results (ScoreRecord, Accuracy) into
// the paper's tables: for people as Markdown and LaTeX, for scripts as CSV
// and JSON (SPEC §5: aggregation and prompt sensitivity).
//
// # Use
//
//	rep := report.Build(records, accuracies)
//	err := rep.WriteDir("results/report")
//
// # The resolved view
//
// A built Report is the resolved view every renderer reads — the tables
// here, package figures, package htmlreport and `triage report` — so none
// of them decides a setting: Bootstrap holds the interval settings with
// their defaults filled, Alpha the headline α (the report's α nearest to
// Options.Alpha, HeadlineAlpha by default, the smaller of two equally
// near), HeadlineRatio the injection ratio of the summary, HeadlineVariant the llm variant of the summary, and Scopes,
// HeadlineScopes, FigureScopes and InjectionFigureScopes the (strategy,
// variant) pairs of the tables, the summary and the figures, in
// vocab's order. Index finds any cell by Key.
//
// WriteDir writes (FileNames):
//
//   - cells.csv — one row per cell (CSV);
//   - cells.json — the whole report: cells, accuracy, sensitivity (JSON);
//   - cells.md — every cell with all its numbers (CellsMarkdown);
//   - tables.md, tables.tex — every table of Tables (Markdown, LaTeX);
//   - accuracy.csv, sensitivity_ranges.csv, sensitivity_ranks.csv;
//   - with a noise part only (WrittenFiles): noise.csv and
//     items_noise.csv.
//
// # Aggregation
//
// A cell is (model, mode, dataset, α, prompt variant, strategy, regime);
// Build groups records by it and aggregates each cell with
// metrics.Aggregate. An excluded record (Excluded ≠ "") becomes
// metrics.Exclude(Excluded); an included one is rescored from its Value,
// Oracle and Random with planscore.Score, the one scoring of a plan that
// grid cells and triage score use too (boundary convention included); the
// stored Eta, Regret and RegretDefined are only checked, and disagreements
// beyond 1e-9 are counted in Cell.StoredMismatch. The regret decomposition
// and the plan diagnostics a record stores (SPEC §5; the same in a pool's
// U and E records) are averaged as stored, the losses over the pools of R̃
// that carry them (Cell.Undecomposed counts the others), each record's
// losses checked against its recomputed R̃ to 1e-12
// (Cell.DecompositionMismatch). Within a cell records are taken
// in pool order, so means do not depend on input order; a second record of
// the same pool is excluded as "duplicate" (ExcludedDuplicate). Every
// aggregate carries its pool count, the number of pools each mean averaged
// and the excluded pools per reason. Base accuracy is per (model, mode,
// dataset), Accuracy entries with the same key summed.
//
// # SPEC §5 reporting rules
//
//   - Headline: the summary (SummaryTable, Headline) and the comparison
//     tables show the llm strategy under vocab.Default ("default")
//     whatever order the config lists variants in (its first variant when
//     the run has no "default", which the summary's notes say); every list
//     of variants puts vocab.Default first (vocab.CompareVariants).
//   - Degenerate pools (metrics.Classify: D1, V_oracle = 0; D2, V_oracle =
//     V_random > 0): every η mean counts them (Cell.Degenerate) and gives
//     the mean over the informative pools alone with its interval
//     (Cell.Informative, InformativeCI); pools.csv flags each pool;
//     summaries and tables whose means include them say so. A dataset
//     whose scored pools are all D1 for a solver is named (OracleZero) and
//     left out of that solver's mean over datasets.
//   - Means over datasets get a stratified interval from two pools in
//     total; a dataset with one pool with a value enters every resample
//     as it is (SinglePool), and the notes name it with what is left of it
//     when its other pools were excluded (singlePoolPhrases).
//   - The summary gives every η mean some of whose pools were excluded as
//     "n=k of m; j excluded: reason" (HeadlineRow.ExcludedU, ExcludedE).
//   - RandomSEMax is undefined (an empty field, null) when no pool was
//     averaged; 0 means every averaged reference is exact.
//   - Strategies without a prompt (variant vocab.NoVariant, "-") are named
//     without a variant in titles (ScopePhrase).
//
// # Tables
//
//   - AccuracyTable: solvers × datasets, "accuracy (n=gradeable)".
//   - η and R̃ tables (the paper's main shape, one per α, strategy
//     and variant): solvers (model, mode) × datasets, each cell
//     "η_U / η_E (n=…)" (or R̃; an η cell with degenerate pools adds
//     "; degenerate D1:k, D2:m; informative u / e, n=…"), and a last
//     "excluded" column such as
//     "aime: unparseable:1; gpqa: error:2". The regret table also counts the
//     pools without R̃ (V_oracle = 0) there, as "oracle=0:k".
//   - per-α table (per-α breakdown, one per dataset, strategy and variant):
//     solvers × α, "η_U / η_E (n=…)", exclusions per α. With dataset
//     AllDatasets it shows the macro-average over datasets (Report.Macro):
//     the unweighted mean of the solver's defined per-dataset means over
//     the datasets that have a cell at that (α, strategy, regime) — the
//     paper's "mean over the data splits"; datasets left out are named
//     ("without d" for no defined mean, "without d (V_oracle = 0)" for
//     all-D1 pools).
//   - range table (per strategy, regime and dataset, AllDatasets included):
//     solvers × α rows, a column of mean η per prompt variant and the range
//     max − min across variants; notes give the rows with range < 0.10 and
//     the median range, as the paper's prompt-variant tables do.
//   - τ_b table (per strategy): rows (dataset, regime, α), Kendall's τ_b
//     between the solver rankings of each variant pair, min τ_b, max range.
//   - "Why plans lose value" (LossTables, one per headline strategy and
//     variant at the headline α): rows (model, mode, dataset), each
//     solver's datasets then its mean over datasets; the mean selection,
//     order and enforcement losses of SPEC §5's regret decomposition with
//     their intervals and n, R̃_U and R̃_E, and the plan diagnostics
//     (precision, recall, cost forecast, under-allocation) with their n.
//   - "Self-knowledge" (SelfKnowledgeTable, at the headline α): rows
//     (dataset, model, mode), η_U of Report.KnowledgeScope beside η_U of
//     the partial-information references population, self_feasibility
//     and self_cost (SPEC §4), with n and the exclusions
//     (metrics.ExcludedNoPopulation explained).
//   - CellsTable: every cell, every number.
//   - injection tables (InjectionTables, one pair per base dataset, source,
//     α, strategy and variant): solvers × injection ratio r, each cell
//     "D / W (n=…)", then the same grid of "η_U / η_E (n=…)". Injection
//     cells (records with a Source) are kept apart in Report.Injection, so
//     that no other table mixes them with the plain pools; injection.csv
//     lists them (model, mode, dataset, source, ratio, alpha, variant,
//     strategy, regime, pools, detection, waste, eta, regret).
//
// Regimes are "U" and "E"; tables put U first (U / E) and cells sort U
// before E. A count pair such as "n=3/2" or "missing:0/1" gives regime U's
// and regime E's counts when they differ; a missing regime cell counts 0.
//
// # Prompt sensitivity
//
// Report.Sensitivity, only where at least two variants are present: per
// (model, mode, dataset, α, strategy, regime) the range of mean η across
// the variants with a defined mean (metrics.Range; undefined below two); per
// (dataset, α, strategy, regime) and pair of variants, Kendall's τ_b
// (metrics.KendallTauB) between the rankings of the solvers that have a
// defined η under both (undefined, with the reason, below two solvers or
// when a ranking is all ties). Both are also given over the macro-average
// (dataset "*", AllDatasets). Strategies without a prompt (variant "-")
// produce none.
//
// # Measurement noise (SPEC §9)
//
// Options.Noise (NoiseInput: every item's Phase 0 samples, the manifest's
// pools and every scored cell's stored plan) adds, when some item has more
// than one sample, Report.Noise — per item the flip rate (the share of its
// gradeable samples 2…k whose y differs from sample 1's) and the cost's
// coefficient of variation (sample s.d. over mean of its gradeable
// costs), and their means per (model, mode, dataset) — and every cell's
// Cell.EtaNoiseCI: the two-stage bootstrap (metrics.TwoStageMeanCIs) over
// the cell's pools and R precomputed draws per pool, each draw giving
// every item one of its gradeable samples and recomputing B, V_oracle,
// V_random (the stored estimate moved by the change M common random
// orders see) and V_M of the stored plan. Macro cells get theirs at the
// headline α, stratified (metrics.TwoStageStratifiedMeanCIs). A record the
// input does not reproduce on sample 1 (B, V_oracle or V_M) is counted in
// Cell.NoiseUnmatched and leaves its cell without the interval. Without
// a noise part every output is byte for byte the one without Options.Noise;
// with one, the "Measurement noise" table (NoiseTable), cells.csv's and
// cells.json's noise columns, the cells table's and the summary's
// noise-aware columns and the two noise files are added. docs/reports.md
// gives the method and the choice of R and M.
//
// # Formats
//
//   - Markdown and LaTeX show numbers with 3 decimals (no negative zero) and
//     an undefined mean as "—"; CSV and JSON use full precision
//     (round-trip), an empty field or null for undefined. α is written
//     shortest ("0.5", "1").
//   - Markdown, LaTeX and the HTML page mark an interval over fewer than
//     FewPools pools with "†" ("0.512 [0.401, 0.613]†"; LaTeX
//     \textdagger{}) — for a mean over datasets, one whose stratified
//     interval resamples a dataset of fewer than FewPools pools, whatever
//     its pools in total (ciPools) — and every table holding one says in
//     a note that so few pools make the percentile bootstrap under-cover
//     (over 2 pools it is the range of the two): the numbers stay SPEC
//     §5's. CSV and JSON
//     carry no mark: cells.json gives every mean's n, cells.csv and
//     comparisons.csv an n column beside each interval (injection.csv
//     counts a cell's records; cells.json has its n).
//   - Markdown: a "## title" per table stating metric, α, strategy, variant
//     or regime, notes, then a pipe table padded to aligned columns
//     (numbers right-aligned); "|", "*" and "\" in text are escaped.
//   - LaTeX: one booktabs tabular per table (\toprule, \midrule,
//     \bottomrule; the document must load booktabs), its title and notes
//     as comment lines before it, \medskip between tables. Text is escaped
//     with TeXEscape; the report's symbols become math (η_U → $\eta_U$,
//     "—" → "---", a leading minus → $-$).
//   - All output is sorted and byte-for-byte deterministic.
package report
