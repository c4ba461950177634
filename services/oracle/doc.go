// Package oracle implements triage.v1.OracleService: for one pool and any
// number of budgets it returns the knapsack oracle (package knapsack) and the
// random reference (package randomref) of SPEC §4.
//
// Requests are validated field by field before any work (ValidateRequest);
// the limits are the exported constants of this package together with the
// exact random reference's limits in package randomref.
package oracle
