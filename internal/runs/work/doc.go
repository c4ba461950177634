// Package work runs resumable work: units that each have a key, a
// fingerprint of their inputs and their work, shared by any number of
// worker processes through a Store.
//
// One loop (Run) does every kind of unit: it claims units a group at a time
// (a unit stored fresh, or held by another worker whose lease has not
// ended, is not claimed), does the claimed ones with bounded concurrency
// (errgroup), renews this worker's leases in one statement while it works,
// gives back what it claimed but did not finish, and looks again at the
// units other workers held (at once, then after backing-off pauses) until
// each is stored fresh or taken over. The first error stops the loop;
// closing Options.Stop drains it (the work started finishes and is stored,
// nothing else starts, Run returns ErrStopped), while ending the context
// abandons the work in progress. A
// source of units brings three things: its units (Unit: a key and a
// fingerprint), the function that does and stores one of them or a batch
// (Options.Batch), and a Store that answers claim, done and fresh for
// their keys; Options.Ahead lets it prepare what a claimed group shares
// before the group's work starts. Group stores the outcomes of units that
// finish together in one write, in the background; Progress counts units.
//
// work imports nothing of the module: the run store, the grid cells, the
// baseline problems and the budget-aware re-solves are above it.
package work
