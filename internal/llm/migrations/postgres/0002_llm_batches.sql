-- Batches submitted to a provider's Batch API (package llm, batch.go): a
-- batch is stored, with the cache keys of its requests, as soon as the
-- provider gave it an id and before any wait, so that a process restarted
-- while the batch runs polls it instead of submitting (and paying for) its
-- requests again. state is "pending" until the batch's results were read,
-- then the provider's final status (completed, failed, expired, cancelled).
-- Times are RFC 3339 UTC with nanoseconds.
CREATE TABLE llm_batches (
	id         text PRIMARY KEY,
	base_url   text NOT NULL,
	created_at text NOT NULL,
	state      text NOT NULL,
	done_at    text NOT NULL DEFAULT ''
);

CREATE INDEX llm_batches_pending ON llm_batches (base_url, state);

CREATE TABLE llm_batch_items (
	batch_id text NOT NULL REFERENCES llm_batches (id),
	key      text NOT NULL,
	PRIMARY KEY (batch_id, key)
);
