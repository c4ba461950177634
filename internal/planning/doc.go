// Package planning groups what a planner is shown and what is made of its
// answer: the prompt templates (planner, solver, banner, judge), the opaque
// planner ids p1 … pn (plannerids) and plan repair. It may import protocol.
package planning
