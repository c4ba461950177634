// Package harnesslog turns the per-sample logs of other evaluation harnesses
// into Phase 0 ground truth (SPEC §9 "Reuse"): inspect_ai logs (.eval
// archives and .json logs) and lm-evaluation-harness samples_*.jsonl files.
//
// Reading (Read*) yields harness-neutral Samples: where each came from
// (file, index, id, epoch), its fields as JSON, the output and reasoning
// tokens the harness reports, its scores, and what else a record keeps
// (finish reason, latency, start time, completion text). Every read is
// bounded by Limits: file and entry sizes, entry and sample counts, and the
// bytes decompressed from an archive (a zip bomb stops at the bound, however
// its headers lie). Only the archive members the format defines are read
// (header.json, samples/<id>_epoch_<n>.json); names are never used as paths.
//
// Converting (Convert) maps each Sample to a ground-truth record of one
// solver against a canonical problem file (package problems): the problem is
// found by the sample's id or by its question text (Match), the cost by
// costrule.OfHarness (rule costrule.HarnessOutput) and y by the chosen
// scorer or metric. A sample is refused, with file, sample and field, when
// it lacks output tokens or a score, when its score is not binary, when no
// problem (or more than one) matches it, or when two samples give the same
// problem; Convert returns either every record or the refusals, never part.
// The rules are documented for users in docs/phase0.md ("Reusing existing
// runs").
//
// It imports the ground-truth store's Record type and the problem file
// reader (store), costrule and apperr (protocol, platform), and nothing
// above phase0.
package harnesslog
