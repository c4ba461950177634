// Package orchestrator runs experiment grids: a thin library over the
// Planner, Executor and Oracle clients (in process or remote alike).
//
// A run is described by a Config. Run imports the ground truth, partitions
// each dataset into seeded pools (package pools, the same for every solver),
// and for every cell (solver, dataset, pool, α, strategy, prompt variant)
// plans (Planner), executes under U and E (Executor) and scores against the
// references (Oracle), computed once per (solver, pool) for the whole α
// sweep. Every plan, its repair log and its scores are stored in the run's
// SQLite store in one transaction per cell, so a run killed at any moment
// and started again skips what is done; the Planner's durable response cache
// answers any plan whose model call had completed, so nothing already
// answered is asked again.
//
// The partial-information references (SPEC §4: population,
// self_feasibility, self_cost) are not planned by the Planner: the Oracle
// computes their plans in the group's one references call, from the
// group's population — every other solver of the run whose model differs,
// with its gradeable records of the pool's items (population.go). They are
// executed and scored like any plan; without a population they are
// excluded as metrics.ExcludedNoPopulation. Their fingerprints also cover
// the population's ground truth.
//
// Injection experiments (Config.Injection, SPEC §5) add pools: for each
// base pool and ratio r, round(r·n) positions hold unsolvable problems of a
// source dataset, drawn by package injection the same way for every solver
// and recorded in the manifest (Manifest.Injected). Their cells are planned,
// executed and scored like any other and also store detection D and waste W.
//
// Every cell records the fingerprint of its inputs (SPEC §5 freshness);
// resuming recomputes stale cells and retries failed ones, and before any
// model call a preflight checks the services, the endpoints, the datasets
// and the ground truth, reporting every problem at once (PreflightError).
// A baseline's preflight checks the Executor and each solver's endpoint,
// which must exist, play the solver's mode and answer a check call. A
// command whose model calls all failed measured nothing and fails
// (CallsFailedError); CallFailures tallies the failures and their reasons,
// and warns when only some failed.
//
// The grid's cells and the baseline's problems are sources of units for
// package work, which claims, shares, resumes and counts them (cells.go,
// baseline.go); the run store answers for them (runstore_work.go).
//
// The orchestrator reads ground truth from the Executor's store once per
// (solver, dataset), only to hand it back to the Oracle and the Executor
// (as inline pools, sparing a store read per cell; the other solvers' as a
// population for the partial-information references) and to size budgets
// (B = ⌊α·Σc⌋ over the solver's gradeable items of the pool); planners see
// ids, texts, values and B only (SPEC §7).
//
// For a report's measurement-noise part (SPEC §9) NoiseInput reads back
// what a run scored: every item's Phase 0 samples through the Executor,
// and, only when some item has more than one, the manifest's pools and the
// scored cells' plans, normalized as the Executor normalized them
// (noise.go); ManifestConfig recovers the config a run store records.
//
// Every model call a run dispatches — a Phase 0 problem sent to the
// Executor, a planner call, a re-solve — goes through the run's Ledger
// (spend.go): with spend.cap_usd its pessimistic cost is reserved in the
// run store before it is sent, atomically across workers, and the run
// stops with a *SpendCapError before a call that could cross the cap; its
// actual cost (usage × the endpoint's price) is stored when it settles.
// The calls a run would still make are found without making them
// (pending.go) for `triage quote`, by the same code that decides them.
package orchestrator
