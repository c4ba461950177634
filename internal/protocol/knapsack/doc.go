// Package knapsack is the exact oracle of the TRIAGE protocol (SPEC §4): it
// solves the 0–1 knapsack problem
//
//	max Σ v_i·y_i·x_i  subject to  Σ c_i·x_i ≤ B,  x ∈ {0,1}ⁿ
//
// over the items of one pool and returns the value, the cost and the chosen
// items in plan order (cost ascending, ties by index ascending).
//
// Only solvable items (Correct and Value > 0) are ever chosen: the others add
// nothing. The reported Value is always recomputed with pool.SumGain, so two
// equal selections give bit-identical values wherever they are computed.
// Solve is deterministic: the same input always gives the same Chosen.
//
// # Methods
//
// Solve validates the input in one O(n) pass (a negative budget, a
// non-positive cost, a non-finite solvable value or an int64 overflow of the
// solvable costs is an error, never a panic) and then picks the first method
// that applies:
//
//  1. All fit. When the solvable costs sum to at most B, every solvable item
//     is chosen. O(n log n) (the plan-order sort).
//
//  2. Uniform values. When all solvable items have bit-identical values (the
//     main protocol: every value is 1), the optimum takes the m cheapest
//     solvable items, for the largest m that fits; among equal costs the
//     lower index is taken first. The solvable indices are packed with their
//     cost into uint64 keys (cost high, index low) and radix-sorted (LSD,
//     bytes, only the significant ones), then the fitting prefix is kept.
//     O(n) time and memory for costs below 2^(64−⌈log2 n⌉) (≈1.4·10¹⁴ at
//     n = 10⁵); a comparison sort, O(n log n), beyond that.
//     BenchmarkSolveUniform100k: about 4.6 ms.
//
//  3. General positive values. Items that cannot fit alone are dropped, the
//     rest are sorted by density v/c descending (ties: cost ascending, index
//     ascending) and a Nemhauser–Ullmann dynamic programme walks them in that
//     order over the Pareto frontier of (cost, value) states: at each stage
//     the frontier is merged with itself shifted by the current item, keeping
//     only states whose value strictly increases with cost and whose cost is
//     at most B. Each state is also bounded with the Dantzig (LP relaxation)
//     bound: its value plus the greedy fractional fill of the remaining
//     items, computed in O(log n) from prefix sums of cost and value in
//     density order and a binary search. A state whose bound is below the
//     best known value minus a slack is dropped. The best known value starts
//     at the greedy solution (density order, skipping items that do not fit)
//     and improves whenever a state's integral greedy fill (its value plus
//     the whole remaining items that fit in density order) beats it. The
//     chosen set is rebuilt from parent pointers: every state refers to a
//     node {item, prev} in an append-only arena, so no stage copies a
//     selection. The context is checked once per stage.
//
// # Exactness
//
// Dominance never loses an optimum (a dominating state completes to a
// selection at least as good), and bound pruning only drops states whose
// every completion is worth less than a selection already found. Floating
// point is handled conservatively: the value prefix sums are compensated
// (Neumaier), and a state is pruned only when
//
//	ub < best − (1e-9·max(|best|, v_max) + 1e-12·Σv)
//
// where v_max is the largest value and Σv the sum of the candidate values.
// The slack is scale invariant and far above the rounding error of the
// bounds, so an optimum is never pruned; for unit values it is the
// 1e-9·max(1, |best|) of the brief plus a negligible term. Selections whose
// values differ by less than float rounding may be reported in place of one
// another.
//
// # Worst cases
//
// The general method keeps at most one state per distinct cost, and at most
// 2^k states after k items, so it runs in O(n·min(B+1, 2^n)·log n) time and
// O(n·min(B+1, 2^n)) memory (the arena keeps the nodes of every stage). The
// worst inputs are those where the bound prunes little, e.g. strongly
// correlated values (v_i ≈ c_i + constant) with many items near the break
// density. On random instances the bound confines the search to a small
// core around the break item. BenchmarkSolveGeneral1k (n = 1,000, costs in
// [1, 4000], values in (0, 1], B ≈ 10⁶) takes about 0.25 ms;
// BenchmarkSolveGeneral1kCorrelated (v = c + 1000, same n and B) about
// 65 ms (medians of make bench on a 2-core machine). Solve returns an error
// rather than exceed 2^31−1 arena nodes. SolveWithin bounds the search by a
// StateBudget, which callers serving untrusted requests share between the
// budgets of one request: it returns a *StateLimitError once the stages have
// started from that many states (the Oracle allows 2^24 per request).
package knapsack
