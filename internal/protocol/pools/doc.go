// Package pools forms the pools of a dataset (SPEC §1): a seeded, recorded,
// deterministic partition of the dataset's problem ids into ordered chunks
// of n problems (default 30), the same for every solver and every run with
// that seed. The last chunk may be smaller; it is kept and flagged Short.
//
// The partition depends only on (dataset, the set of ids, size, seed): not
// on the order the ids are given in, nor on the platform. Each id gets the
// key SHA-256("triage/pools/v1" ‖ seed ‖ dataset ‖ id) (seed as 8 bytes
// big-endian, strings length-prefixed so no two inputs share an encoding);
// the ids are ordered by key, ties (never seen in practice) broken by id,
// and that order is cut into consecutive chunks of size. Algorithm names
// this scheme so that a manifest can record it beside the seed.
package pools
