-- The one table of the LLM cache: a successful response (the JSON encoding
-- of Response) under its content-addressed key; obtained_at is RFC 3339 UTC
-- with nanoseconds, for inspection and pruning. IF NOT EXISTS: the caches of
-- the releases before versions have this table and take this step as done.
CREATE TABLE IF NOT EXISTS llm_cache (
	key         TEXT PRIMARY KEY,
	response    TEXT NOT NULL,
	obtained_at TEXT NOT NULL
) WITHOUT ROWID;
