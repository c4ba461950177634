// Package scoring is `triage score`'s document: from one JSON document (a
// pool with its ground truth, a budget, a plan, random-reference options)
// it gets every metric of SPEC §5 for the plan from one ScorePlan call to
// the Scoring service (services/scoring), in process or remote alike, which
// composes the Executor and the Oracle and scores through planscore.Score,
// as grid cells and reports do.
//
// ParseInput reads the document and reports problems as file:line: field:
// reason; Score calls the service and translates its field violations back
// to the document's paths.
package scoring
