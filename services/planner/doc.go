// Package planner implements triage.v1.PlannerService (Phase 1, SPEC §7):
// CreatePlan shows a planner the pool — ids, texts, values and the budget,
// never ground truth — through the planner prompt (package prompts) and an
// LLM gateway client (package llm), or runs a reference strategy, and turns
// the answer into a plan with package repair (SPEC §2). RepairPlan does the
// last step alone, for platforms that call their own models.
//
// Models are reached through endpoints configured on the server by name
// (which may use API keys from the server's environment) or given inline
// (which may not: an inline endpoint naming an environment variable would let
// any caller send the server's secrets to any URL).
package planner
