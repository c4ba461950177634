// Package injection composes the pools of the unsolvable-injection
// experiment (SPEC §5): a base pool of n problems keeps its size while
// k = round(r·n) of its positions are given to unsolvable problems drawn
// from a source dataset.
//
// The rule is seeded, recorded and deterministic, and depends only on the
// seed, the base pool (dataset, index and ids in order), the set of source
// ids and r, never on any solver, so every solver sees the same pools:
//
//   - Positions. Each position p of the base pool gets the key
//     SHA-256("triage/injection/positions/v1" ‖ seed ‖ dataset ‖ pool ‖ id_p);
//     positions are ordered by key (ties by position) and the first k are
//     substituted. The order does not depend on r, so the positions
//     substituted at a ratio are a subset of those at any larger ratio.
//   - Items. Each source id s gets the key
//     SHA-256("triage/injection/source/v1" ‖ seed ‖ dataset ‖ pool ‖ s); the
//     source ids are taken in key order (ties by id), skipping the twin of any
//     base problem that stays in the pool (the twin of id is the source id
//     id + the twin suffix, "-abstain" for the AbstentionBench variants), and
//     the first k fill the substituted positions in increasing position
//     order. An item is drawn at most once per pool (without replacement);
//     different pools draw independently, so a source item may appear in
//     several pools.
//
// Strings are length-prefixed and integers 8 bytes big-endian, so no two
// inputs share an encoding. Algorithm names the scheme for manifests.
package injection
