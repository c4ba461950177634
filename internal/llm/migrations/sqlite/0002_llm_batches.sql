-- Batches submitted to a provider's Batch API (package llm, batch.go): a
-- batch is stored, with the cache keys of its requests, as soon as the
-- provider gave it an id and before any wait, so that a process restarted
-- while the batch runs polls it instead of submitting (and paying for) its
-- requests again. state is "pending" until the batch's results were read,
-- then the provider's final status (completed, failed, expired, cancelled).
-- Times are RFC 3339 UTC with nanoseconds.
CREATE TABLE llm_batches (
	id         TEXT PRIMARY KEY,
	base_url   TEXT NOT NULL,
	created_at TEXT NOT NULL,
	state      TEXT NOT NULL,
	done_at    TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;

CREATE INDEX llm_batches_pending ON llm_batches (base_url, state);

CREATE TABLE llm_batch_items (
	batch_id TEXT NOT NULL REFERENCES llm_batches (id),
	key      TEXT NOT NULL,
	PRIMARY KEY (batch_id, key)
) WITHOUT ROWID;
