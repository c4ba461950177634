// Package gtfile reads and writes the ground-truth JSONL format: one record
// per line with keys model, mode, dataset, problem_id, cost, correct,
// gradeable (default true), finish_reason, latency_ms, response_sha256,
// error, measured_at (RFC 3339; default: the time of import), lucky_guess
// (default false: the grader accepted the answer to an unsolvable item,
// which is stored as not correct, SPEC §1), cost_rule (the SPEC §1 rule
// that gave cost, one of the names of package costrule — completion,
// total_minus_prompt, completion_plus_reasoning, none, unknown,
// harness_output; default unknown) and source (the log an imported record
// came from, FILE#SAMPLE; default none). FormatLine always writes cost_rule.
package gtfile
