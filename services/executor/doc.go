// Package executor implements triage.v1.ExecutorService: it keeps the Phase 0
// ground truth (package store), and scores plans against it, or against ground
// truth sent inline, under the execution regimes of SPEC §3 (package
// execution), after normalizing them per SPEC §2 step 3.
//
// Pools of stored ground truth follow SPEC §1: a solver with no records at
// all, or a problem with no record for the solver, is NotFound (with the
// missing keys); a problem whose record is not gradeable is dropped from the
// pool and reported. A budget given as α applies to the pool that remains.
//
// With baseline endpoints (WithBaseline) it also runs Phase 0
// (RunBaseline), and CheckEndpoints probes named endpoints (llm.Probe) so
// that a caller learns before any work that one is unknown, down, refuses
// the server's key or does not serve its model; its reasons name the
// provider's status and message (llm.Describe), never an address. A
// baseline summary counts the calls that failed apart from the answers
// that could not be graded. A baseline may ask k samples per problem (SPEC
// §9 repeated Phase 0): sample 1 is the ground truth, samples 2..k are
// distinct model calls stored beside it, and each stored sample is skipped
// on its own, so raising k makes only the missing ones; counts are of
// calls. ListGroundTruth lists every sample when asked (all_samples).
package executor
