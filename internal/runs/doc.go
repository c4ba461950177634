// Package runs groups experiments over the services: the one loop of
// resumable work (work), the orchestrator and its run store, reports,
// one-call scoring, the budget-aware re-solve and the demo sample. It may
// import phase0, llm, planning, store, platform, protocol, gen.
package runs
