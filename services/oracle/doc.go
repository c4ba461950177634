// Package oracle implements triage.v1.OracleService: for one pool and any
// number of budgets it returns the knapsack oracle (package knapsack), the
// random reference (package randomref) and, given the population's ground
// truth, the partial-information reference plans (package partialref) of
// SPEC §4.
//
// Requests are validated field by field before any work (ValidateRequest);
// the limits are the exported constants of this package together with the
// exact random reference's limits in package randomref.
package oracle
