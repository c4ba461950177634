// Package scoring implements triage.v1.ScoringService, the paper's metric as
// one call (SPEC §10): it normalizes and executes a plan on a pool through
// the Executor, computes the references through the Oracle, and scores the
// plan at every budget and regime with planscore.Score, the one definition
// of a plan's per-pool scores.
//
// The Executor and the Oracle are interfaces (Executor, Oracle): the same
// process's services (Local, which validates each request as the server
// runner does) or remote ones over gRPC (Remote). Either way their
// InvalidArgument errors come back translated to the ScorePlanRequest's own
// field paths, so a caller learns which of its fields is wrong whichever
// service found it.
//
// A request is checked before any work (ValidateRequest) against the limits
// of limits.go; the Executor and the Oracle apply theirs too. ScorePlans
// scores a batch on a bounded number of workers and streams the outcomes
// in request order, each with its own error: one bad pair does not fail the
// others.
package scoring
