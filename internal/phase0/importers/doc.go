// Package importers converts benchmark files to canonical problems
// (package problems) with grading data (grading.Spec).
//
// Each importer takes one or more Inputs and returns the problems, a
// Report of what it read and skipped (counts per reason, with the first
// few file:line examples), or an *Error. Every importer aborts on a
// malformed record (invalid JSON or CSV, a missing or mistyped field, an
// answer that cannot be one): the *Error lists every such record, up to
// MaxIssues, as "file:line: field: reason" (Parquet: "file:row N: …"), and
// no problems are returned. Records that are well formed but not wanted or
// not gradeable (outside a date window, with an image, a duplicate…) are
// skipped and reported instead, with the triage import flag (Flag*
// constants) and value that would keep them when one would (Skip.Keep);
// the Report also counts the code problems produced without hidden tests
// (graded on public tests alone). Two records with the same dataset and id
// are a duplicate when their problems are identical (the second is
// skipped) and an error otherwise.
//
//	AIME          JSONL, url form or prompt form        dataset aime        kind math (integer)
//	MMLU          JSONL                                 mmlu-math           kind choice
//	GPQA          CSV or JSONL (Hugging Face columns)   gpqa                kind choice (shuffled)
//	LCB           JSONL (LiveCodeBench native schema)   lcb                 kind code
//	HLE           JSONL or Parquet                      hle, hle-<category> kind exact or choice
//	MMLUAbstain   as MMLU, AbstentionBench recipe       mmlu-math-abstain   unsolvable
//	GPQAAbstain   as GPQA, AbstentionBench recipe       gpqa-abstain        unsolvable
//
// An input's format comes from its extension (.jsonl, .json, .ndjson,
// .csv, .parquet), else from its content. WriteJSONL writes problems as
// a canonical problem file, checking that each line reads back.
package importers
