// Package work runs resumable work: units that each have a key, a
// fingerprint of their inputs and their work, shared by any number of
// worker processes through a Store.
//
// One loop (Run) does every kind of unit: it claims units a group at a time
// (a unit stored fresh, or held by another worker whose lease has not
// ended, is not claimed), does the claimed ones with bounded concurrency,
// renews this worker's leases in one statement while it works, gives back
// what it claimed but did not finish, and looks again after a backing-off
// pause (Pause) at the units other workers held until each is stored fresh
// or taken over. The first error stops the loop. A kind of work is a Source:
// its units, how one (or a batch of them) is done and stored, and a Store
// that answers claim, done and fresh for its keys. Progress counts units.
//
// work imports nothing of the module: the run store, the grid cells, the
// baseline problems and the budget-aware re-solves are above it.
package work
