// Package budgetaware runs the budget-aware re-solve of SPEC §5: for every
// (solver, problem) that the solver's α = 1 plan selected with a_i > 0, the
// solver answers again with the budget banner stating a_i prepended to its
// standard prompt, with no hard cap (max_tokens is the baseline's). The
// results are stored in the run store, so a re-solve resumes where it
// stopped, and summarized per solver and dataset: Acc_baseline,
// Acc_budget-aware, compliance = mean 1[output tokens ≤ a_i], and the four
// counts kept-correct, lost-correct, newly-correct and still-wrong.
//
// Items whose re-solve is not gradeable (the call failed after its
// retries) are left out of N and counted separately. The plans followed are
// those of the llm strategy under one prompt variant (default "default");
// a pool whose α = 1 plan failed or could not be parsed contributes nothing
// and is counted.
package budgetaware
