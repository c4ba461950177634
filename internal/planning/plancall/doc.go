// Package plancall renders the model call of a planning request: the pool
// as the planner sees it (opaque ids p1 … pn, SPEC §1), the planner prompt
// of the request's variant, and the plan's JSON schema when structured
// output is asked for. The Planner sends it; a quote counts it and looks it
// up in the cache; a spend cap reserves its cost. It imports no service.
package plancall
