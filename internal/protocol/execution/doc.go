// Package execution normalizes a parsed plan against a pool and simulates it
// under the two execution regimes of the TRIAGE protocol, against the stored
// ground truth.
//
// # SPEC rules implemented
//
//   - SPEC §2 step 3 (Normalize; NormalizeIDs for callers that know only the
//     pool's ids): unknown ids are dropped, a repeated id keeps its first
//     occurrence, negative allocations become 0, and allocations of 0 are
//     dropped (not attempted). Every drop is logged with its raw position,
//     id, raw allocation and reason.
//   - SPEC §1: the planned set is S = {i : a_i > 0} (the kept steps); a plan
//     with Σ a > B is still executed, and flagged by Plan.OverBudget.
//   - SPEC §3 regime U (RunAdvisory): R ← B, V ← 0; for each step in plan
//     order, if c_i > R stop, else R ← R − c_i and V ← V + v_i·y_i.
//     Allocations are ignored.
//   - SPEC §3 regime E (RunEnforced): if a_i > R stop, else R ← R − a_i, and
//     V ← V + v_i·y_i only if c_i ≤ a_i; otherwise the attempt is truncated and
//     scores 0, its allocation still deducted.
//   - SPEC §3: both return V_M and a per-step trace: Scored (executed),
//     Truncated (E only), Stopped (stopped here) or NotReached.
//   - Execute computes the same values without a trace and without
//     allocating, for callers that need only V_M (grids); a trace is a pure
//     function of (pool, plan, budget, regime) and can be built later.
//
// The text-level repairs of SPEC §2 steps 1, 2 and 4 (extracting the JSON,
// tolerating defects, matching canonical id forms, unparseable output)
// belong to the parser (internal/planning/repair); Normalize receives its output as
// []Step with ids that match pool ids exactly. The parser applies step 3
// itself through NormalizeIDs, the same rules over an id lookup instead of a
// Pool, so that both agree: Normalize keeps every step of a repaired plan.
//
// # Conventions where SPEC is silent
//
//   - Normalization order: for each raw step the rules are checked as
//     unknown id, duplicate, negative, zero, and the first that applies is
//     the logged reason. "First occurrence" counts every occurrence of a
//     known id, whatever its allocation: if the first occurrence of an id has
//     allocation ≤ 0, the item is not attempted at all, and later occurrences
//     are dropped as duplicates even when positive.
//   - Ids match exactly (case and whitespace included).
//   - A negative allocation is logged as DropNegative (it became 0 and was
//     then dropped), not DropZero.
//   - Plan.PlannedTokens saturates at math.MaxInt64; OverBudget stays exact.
//   - A regime stops at the first step that does not fit; it never skips to
//     a later, cheaper step. The stopping step is traced as Stopped and the
//     rest as NotReached; Result.Stopped is its position (−1 when the whole
//     plan ran). Steps that were not executed have Gain 0 and leave
//     Remaining unchanged.
//   - A step that fits exactly (c_i = R in U, a_i = R in E) runs. In E,
//     c_i = a_i finishes inside its limit and scores.
//   - An executed incorrect item is Scored with Gain 0: it consumes budget.
//   - V_M is summed in plan order.
//   - A negative budget is taken as 0. Steps with a ≤ 0, which Normalize never
//     keeps, count as a = 0 in regime E if a hand-built Plan has them.
//   - NewPool rejects empty or repeated ids, costs ≤ 0, and values that are
//     not finite and positive (SPEC §1), and copies its input.
//
// # Performance and concurrency
//
// A Pool is immutable and safe for concurrent use; Normalize and the regimes
// keep their scratch on the stack (per call) and allocate only their results:
// Normalize its Steps and Log (Log only when a step is dropped), each regime
// its Trace, each with its exact length.
package execution
