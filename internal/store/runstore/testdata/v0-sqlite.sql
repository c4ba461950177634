-- A run store of the first releases, before schema versions (user_version
-- 0): their DDL, verbatim, and a cell, its score and an accuracy row.
-- Frozen: never edit.
CREATE TABLE IF NOT EXISTS manifest (
		id       INTEGER PRIMARY KEY CHECK (id = 1),
		config   TEXT NOT NULL,
		pools    TEXT NOT NULL
	);
	CREATE TABLE IF NOT EXISTS cells (
		key       TEXT PRIMARY KEY,
		plan      TEXT NOT NULL, -- the planner's response (JSON), or "" on error
		excluded  TEXT NOT NULL,
		detail    TEXT NOT NULL,
		done_at   INTEGER NOT NULL
	);
	CREATE TABLE IF NOT EXISTS scores (
		key      TEXT NOT NULL REFERENCES cells(key),
		regime   TEXT NOT NULL,
		record   TEXT NOT NULL, -- ScoreRecord as JSON
		PRIMARY KEY (key, regime)
	);
	CREATE TABLE IF NOT EXISTS budget_aware (
		model TEXT NOT NULL, mode TEXT NOT NULL, dataset TEXT NOT NULL, problem_id TEXT NOT NULL,
		record TEXT NOT NULL, -- BudgetAwareResult as JSON
		PRIMARY KEY (model, mode, dataset, problem_id)
	);
	CREATE TABLE IF NOT EXISTS accuracy (
		model TEXT NOT NULL, mode TEXT NOT NULL, dataset TEXT NOT NULL,
		correct INTEGER NOT NULL, gradeable INTEGER NOT NULL,
		PRIMARY KEY (model, mode, dataset)
	);
INSERT INTO cells (key, plan, excluded, detail, done_at) VALUES ('k', '', '', '', 1);
INSERT INTO scores (key, regime, record) VALUES ('k', 'U', '{"model":"m","mode":"standard","dataset":"d","regime":"U","eta":0.5,"value":1,"oracle":2}');
INSERT INTO accuracy (model, mode, dataset, correct, gradeable) VALUES ('m', 'standard', 'd', 3, 4);
