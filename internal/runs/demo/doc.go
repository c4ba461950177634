// Package demo bundles the SYNTHETIC sample that the README's first command
// (make demo) runs the α sweep on, with no configuration and no network.
//
// THE DATA IS SYNTHETIC. The problems are invented: templated puzzles whose
// texts all begin "[synthetic]", generated for the demo and taken from no
// benchmark. The solvers ("synthetic-careful", "synthetic-hasty") are
// invented too: no model was ever run, and every cost, correctness flag,
// latency and error in the ground truth was drawn from a seeded random
// generator. Nothing here is a real model result, and numbers computed
// from it say nothing about any real model.
//
// The sample has two datasets (synth-math, synth-code) of 60 problems each,
// 6 of them marked unsolvable, in the canonical problem format (package
// problems), and the ground truth of four solvers (two invented models ×
// standard/extended mode) for every problem, in the JSONL format that
// "triage ground-truth import" reads.
//
// The invented solvers are built so that the partial-information
// references of SPEC §4 separate. synthetic-careful is right exactly on the
// problems easy enough for its mode, so what the other model's record says
// about a problem predicts it: its population reference comes close to
// self_feasibility. synthetic-hasty slips on problems of its own, and
// spends three times the tokens there, which no other model's record
// shows: only self_feasibility and self_cost avoid them. The test
// TestReferencesSeparate computes the references from the ground truth and
// checks that they separate.
//
// The generator that wrote data/ is gen_test.go; the test checks that the
// embedded files are exactly its output. To change the sample, edit the
// generator and run:
//
//	go test ./internal/runs/demo -run TestEmbeddedDataIsGenerated -update
package demo
