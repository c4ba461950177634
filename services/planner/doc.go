// Package planner implements triage.v1.PlannerService (Phase 1, SPEC §7):
// CreatePlan shows a planner the pool — texts, values and the budget, never
// ground truth — through the planner prompt (package prompts) and an LLM
// gateway client (package llm), or runs a reference strategy, and turns the
// answer into a plan with package repair (SPEC §2). The planner never sees
// the caller's problem ids: package plannerids shows them as p1 … pn in pool
// order and maps the plan back (SPEC §1), and the response carries that
// table. RepairPlan does the last step alone, for platforms that call their
// own models (opaque_ids: output in planner ids). ListEndpoints lists the
// configured endpoints — model, mode, family, output limit, never keys — for
// callers' preflight checks.
//
// Models are reached through endpoints configured on the server by name
// (which may use API keys from the server's environment) or given inline
// (which may not: an inline endpoint naming an environment variable would let
// any caller send the server's secrets to any URL).
package planner
