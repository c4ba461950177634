// Package metrics computes the per-pool metrics of the TRIAGE protocol and
// aggregates them per cell (SPEC §5). It is pure computation on numbers: it
// knows nothing of plans, pools or transports.
//
// # SPEC rules implemented
//
//   - Triage efficiency η (Eta), with SPEC §5's boundary convention: when
//     V_oracle − V_random ≤ ε, η = 1 if V_M ≥ V_oracle − ε else 0.
//   - Normalized regret R̃ = (V_oracle − V_M)/V_oracle (Regret), defined only
//     when V_oracle > 0.
//   - Unsolvable injection: detection D = |U \ S|/|U| (Detection), undefined
//     when U is empty, and waste W = Σ_{S∩U} a / Σ_S a (Waste), 0 when the
//     plan allocates nothing; S = {i : a_i > 0}.
//   - Aggregation (Aggregate): η is the mean over the cell's pools with a
//     parseable plan, R̃ the mean over those with V_oracle > 0, and the cell
//     reports how many pools each mean averaged and how many were excluded,
//     and why.
//   - Degenerate pools (Classify): D1, V_oracle = 0, and D2, V_oracle =
//     V_random > 0 (the α = 1 collapse), where η is set by convention. This
//     package is their one definition: Score records each pool's kind and
//     Aggregate counts them beside the η mean, with the mean over the
//     informative pools alone.
//   - Intervals (Bootstrap): the 95% percentile bootstrap of a mean
//     (MeanCI) and the stratified one of a mean over datasets
//     (StratifiedMeanCI), where a dataset with a single pool enters every
//     resample unresampled; and the two-stage interval of a mean over
//     pools whose values are uncertain (TwoStageMeanCIs, SPEC §9's
//     noise-aware interval): pools resampled as MeanCI resamples them, then
//     one of each drawn pool's equally likely values picked.
//   - Power of a paired comparison (PairedPower, SPEC §9): the minimum
//     detectable difference at 80% power and a 5% two-sided level and the
//     pools needed to detect 0.05, by the normal approximation from the
//     observed paired SD.
//   - Prompt sensitivity: the range max − min across variants (Range) and
//     Kendall's τ_b between two variants' model rankings (KendallTauB).
//
// # Conventions where SPEC is silent
//
//   - ε is the absolute constant Epsilon = 1e-9.
//   - A V_M above V_oracle by at most ε is rounding and counts as V_oracle
//     (η = 1, R̃ = 0); a larger excess is not clamped, so an infeasible V_M
//     shows (η > 1, R̃ < 0) instead of being hidden.
//   - NaN or infinite inputs: Eta returns NaN, Regret reports undefined.
//   - Undefined results are reported with a bool (Regret, Detection) or
//     Mean.Defined, never NaN, so they survive JSON; their value is 0.
//   - Detection and Waste take one Allocation per pool item: whether it is
//     injected-unsolvable and its normalized allocation (a ≤ 0 is "not
//     planned"). Waste sums allocations in float64.
//   - Aggregate: a record is excluded when its Reason is non-empty; an
//     included record with unusable numbers (η or V_oracle not finite,
//     RegretDefined ≠ (V_oracle > 0), non-finite defined R̃) is counted under
//     ExcludedInvalid. Excluded pools leave both means. Means are plain sums
//     in input order over N. Exclusions are reported sorted by reason.
//   - KendallTauB compares scores exactly (equal float64 values tie), counts
//     pairs tied in both lists in n₁ and n₂ (scipy's default τ_b), and returns
//     an error for mismatched lengths, n < 2, NaN, or a list that is all ties
//     (τ_b = 0/0). It runs in O(n²).
//   - Range of fewer than two values is 0; a NaN value gives NaN.
package metrics
