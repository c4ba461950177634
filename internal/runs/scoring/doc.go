// Package scoring is one-call scoring: from one JSON document (a pool with
// its ground truth, a budget, a plan, random-reference options) it computes
// every metric of SPEC §5 for the plan by composing the Executor and Oracle
// services through their gRPC clients, in process or remote alike; the
// metrics themselves are planscore.Score's, as for grid cells and reports.
//
// ParseInput reads the document and reports problems as file:line: field:
// reason; Score calls the services and translates their field violations
// back to the document's paths.
package scoring
