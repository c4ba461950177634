// Package gtfile reads and writes the ground-truth JSONL format: one record
// per line with keys model, mode, dataset, problem_id, cost, correct,
// gradeable (default true), finish_reason, latency_ms, response_sha256,
// error, measured_at (RFC 3339; default: the time of import), lucky_guess
// (default false: the grader accepted the answer to an unsolvable item,
// which is stored as not correct, SPEC §1), cost_rule (the SPEC §1 rule
// that gave cost, one of the names of package costrule — completion,
// total_minus_prompt, completion_plus_reasoning, none, unknown,
// harness_output; default unknown), source (the log an imported record
// came from, FILE#SAMPLE; default none) and problem_sha256 (the problem's
// digest when measured, 64 lowercase hex digits, empty when unknown; a
// record whose problem now digests differently is stale: `triage baseline`
// solves it again and `triage run` refuses it until then; default empty).
// FormatLine always writes cost_rule, and problem_sha256 when known.
package gtfile
