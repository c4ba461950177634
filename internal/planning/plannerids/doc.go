// Package plannerids gives a pool's problems the opaque ids a planner sees
// and reads plans written with them back into the pool's own ids (SPEC §1,
// "Planner-facing ids are opaque").
//
// Dataset ids tell a model things it must not know: "2024-I-14" is the
// fourteenth (among the hardest) problem of its contest, "1873_A" the first
// (easiest) of a Codeforces round, and "…-abstain" marks a question with no
// answer. So a planner is shown the problems of a pool as p1 … pn, in pool
// order, and nothing else of their ids:
//
//	table, err := plannerids.New(poolIDs)       // poolIDs[i] ↔ "p<i+1>"
//	shown := table.PlannerID(i)                 // what the prompt says
//	res := table.Repair(rawOutput, &budget)     // the plan, in pool ids
//
// Repair matches the written ids against p1 … pn with package repair's rules
// (so "p3", "P3", "3" and the number 3 all name the third problem), then
// maps the plan and the dropped steps that name a problem of the pool back
// to the pool's ids. Dropped steps whose id names no problem ("p99") keep the
// id as written, and the repair log (Result.Fixes) quotes the raw output, so
// it speaks planner ids: Pairs gives the table that reads it, which callers
// store beside the raw output.
package plannerids
