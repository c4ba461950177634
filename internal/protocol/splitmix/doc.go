// Package splitmix is the SplitMix64 generator (Steele, Lea & Flood 2014;
// Sebastiano Vigna's reference C code) and exact bounded draws from it: the
// one source of seeded randomness of the protocol's estimates, so that a
// seed gives the same numbers on every platform.
package splitmix
