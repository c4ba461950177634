// Package pool defines the pool item as the reference computations see it:
// an id, the solver's measured cost, whether the solver got it right, and its
// value (SPEC §1). It also fixes the one canonical way values are summed, so
// that every component that sums the same items gets the same float64.
package pool
