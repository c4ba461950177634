// Package gtfile reads and writes the ground-truth JSONL format: one record
// per line with keys model, mode, dataset, problem_id, cost, correct,
// gradeable (default true), finish_reason, latency_ms, response_sha256,
// error, measured_at (RFC 3339; default: the time of import) and
// lucky_guess (default false: the grader accepted the answer to an
// unsolvable item, which is stored as not correct, SPEC §1).
package gtfile
