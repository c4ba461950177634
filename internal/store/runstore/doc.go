// Package runstore keeps a run: its manifest, the plans and score records
// of its cells, its base accuracies, its budget-aware re-solves, the builds
// that touched it, and the leases of the workers sharing it.
//
// Store is the one interface; Open picks a backend from a location string:
// embedded SQLite (a file path, the default) or PostgreSQL (a postgres://
// URL), which several machines share. Both run the same SQL (package sqldb)
// and pass the same conformance suite (store_test.go, run against each).
//
// Guarantees: a fresh cell is stored exactly once, whichever worker
// finishes it (CellSaver); two workers never hold one unit (ClaimKeys,
// ClaimCells); stored rows are JSON under stable keys (ScoreRecord,
// BudgetAwareResult, Manifest), so a store written by an earlier release
// opens, is brought up to date and reads as before; a store written by a
// newer release is refused. Operations ride out an outage of the store
// (Outage) and give up with an *UnreachableError that loses nothing.
//
// The spend table holds what the run's model calls cost (SPEC §9):
// Reserve holds a call's pessimistic cost against a cap in one serialized
// transaction (an advisory lock on PostgreSQL, the single writer of
// SQLite), Settle records the actual cost, Spend sums it per phase and
// endpoint.
//
// It imports only platform, protocol and the other store packages.
package runstore
