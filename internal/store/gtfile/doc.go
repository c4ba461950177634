// Package gtfile reads and writes the ground-truth JSONL format: one record
// per line with keys model, mode, dataset, problem_id, cost, correct,
// gradeable (default true), finish_reason, latency_ms, response_sha256,
// error and measured_at (RFC 3339; default: the time of import).
package gtfile
