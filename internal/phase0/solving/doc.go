// Package solving runs a solver on one problem and grades its answer: the
// step Phase 0 repeats for every (solver, problem), and the budget-aware
// re-solve repeats with the banner (SPEC §5, §7).
//
// The solver sees its domain's standard prompt (package prompts, chosen by
// the problem's grading kind), optionally preceded by the budget-aware
// banner, as one user message; the endpoint fixes the temperature (0 for
// baselines). Only the response's final content is graded, after any
// leaked <think> block is removed: a reasoning model's thinking never is.
// An output cut at the token limit (finish_reason "length") is incorrect
// without grading, and flagged. A call that fails after the gateway's
// retries, or an answer that cannot be graded, makes the attempt not
// gradeable, with the reason.
//
// SolveSample makes repeated Phase 0 sample j (SPEC §9): the same request
// as sample 1, but for j ≥ 2 a model call of its own rather than the cached
// answer of another sample (llm.Request.Sample); MaxSamples bounds k.
package solving
