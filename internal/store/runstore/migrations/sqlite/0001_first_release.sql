-- The schema of the first releases. IF NOT EXISTS: their stores, created
-- before versions (user_version 0), have these tables and take this step
-- as done.
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
