// Package partialref builds the partial-information reference plans of SPEC
// §4: `population`, `self_feasibility` and `self_cost`. They separate what a
// planner knows about itself from what anyone knows about the items: each is
// a plan made from part of the truth (the other models' results, the
// solver's own correctness, or its own costs), executed and scored like a
// model's plan.
//
// For a solver and a pool, the population is every other solver of the run
// whose model differs (leave-model-out; the caller chooses its members).
// For item i, p̂_i is the mean y over the population's records of i and ĉ_i
// the median of their costs (the mean of the two middle costs for an even
// count); an item no member has graded takes the pool's means of p̂ and ĉ
// over the items that have records. The scale is the solver's own:
// ĉ'_i = ĉ_i · (Σ_pool c_i / Σ_pool ĉ_i), sums over the solver's gradeable
// items of the pool.
//
//   - population: items with p̂_i > 0 by p̂_i / ĉ'_i descending, a_i = ⌈ĉ'_i⌉;
//   - self_feasibility: items with y_i = 1 by ĉ'_i ascending, a_i = ⌈ĉ'_i⌉;
//   - self_cost: items with p̂_i > 0 by p̂_i / c_i descending, a_i = c_i.
//
// Each greedy pass walks its items in that order and keeps an item when,
// with it, Σ a ≤ B; an item that does not fit is passed over and the walk
// goes on (SPEC §4 leaves "keeps an item while Σ a ≤ B" to this reading: it
// is the usual greedy knapsack, and a plan that stops at the first misfit
// would be a weaker reference than the information allows). Ties keep pool
// order.
//
// The arithmetic is exact: p̂, ĉ, the scale, the ceilings and the order's
// ratios are rationals (math/big), so no plan depends on float rounding.
// The package is pure and imports only other protocol packages.
package partialref
