-- An LLM cache as the releases before cache versions wrote it: their DDL,
-- verbatim (no version recorded anywhere), and one response. Frozen: never
-- edit.
CREATE TABLE IF NOT EXISTS llm_cache (
	key         text PRIMARY KEY,
	response    text NOT NULL,
	obtained_at text NOT NULL
);
INSERT INTO llm_cache (key, response, obtained_at) VALUES ('k', '{"content":"four","cost":3}', '2026-01-01T00:00:00Z');
