// Package budget computes a pool's token budget from a fraction of its total
// cost, B(α) = ⌊α · Σ c_i⌋ (SPEC §1), reading α as the decimal the caller
// wrote so that the floor is never off by one because of binary rounding.
package budget
