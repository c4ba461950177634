// Package planning groups what a planner is shown and what is made of its
// answer: the prompt templates (planner, solver, banner, judge), the opaque
// planner ids p1 … pn (plannerids), plan repair, and the Planner's model
// call rendered from a CreatePlanRequest (plancall: one home for the
// Planner service, the orchestrator's spend reservations and the quote).
// It may import llm, platform, protocol and gen (the last three for
// plancall alone; the rest of planning imports protocol only).
package planning
