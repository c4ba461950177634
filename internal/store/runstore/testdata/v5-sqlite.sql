-- A run store as the releases before the shared migrator (sqldb.Migrate)
-- wrote it at schema version 5: their DDL, verbatim, their version record
-- (PRAGMA user_version) and a row in every table. Frozen: never edit.
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
ALTER TABLE cells ADD COLUMN fingerprint TEXT NOT NULL DEFAULT '';
	CREATE TABLE grid_cells (
		key         TEXT PRIMARY KEY,
		fingerprint TEXT NOT NULL
	);
	ALTER TABLE accuracy ADD COLUMN unsolvable INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE accuracy ADD COLUMN lucky_guesses INTEGER NOT NULL DEFAULT 0;
	CREATE TABLE budget_aware_grid (
		model TEXT NOT NULL, mode TEXT NOT NULL, dataset TEXT NOT NULL, problem_id TEXT NOT NULL,
		fingerprint TEXT NOT NULL,
		PRIMARY KEY (model, mode, dataset, problem_id)
	);
CREATE TABLE claims (
	key        TEXT PRIMARY KEY,
	worker     TEXT NOT NULL,
	expires_at BIGINT NOT NULL
);
ALTER TABLE accuracy ADD COLUMN public_tests_only INTEGER NOT NULL DEFAULT 0;
CREATE TABLE builds (
	build      TEXT NOT NULL,
	command    TEXT NOT NULL,
	info       TEXT NOT NULL,
	first_used BIGINT NOT NULL,
	last_used  BIGINT NOT NULL,
	PRIMARY KEY (build, command)
);
PRAGMA user_version = 5;
INSERT INTO manifest (id, config, pools) VALUES (1, '{}', '{"partitions":{"d":[{"index":0,"problem_ids":["p1","p2"]}]}}');
INSERT INTO cells (key, plan, excluded, detail, done_at, fingerprint) VALUES ('k', '', '', '', 1, 'fp');
INSERT INTO scores (key, regime, record) VALUES ('k', 'U', '{"model":"m","mode":"standard","dataset":"d","pool":0,"alpha":0.5,"variant":"default","strategy":"llm","regime":"U","value":1,"oracle":2,"random":0,"random_stderr":0,"eta":0.5,"regret":0,"regret_defined":false,"pool_size":2,"dropped":0}');
INSERT INTO grid_cells (key, fingerprint) VALUES ('k', 'fp');
INSERT INTO accuracy (model, mode, dataset, correct, gradeable, unsolvable, lucky_guesses, public_tests_only) VALUES ('m', 'standard', 'd', 3, 4, 1, 0, 2);
INSERT INTO budget_aware (model, mode, dataset, problem_id, record) VALUES ('m', 'standard', 'd', 'p1', '{"model":"m","mode":"standard","dataset":"d","problem_id":"p1","pool":0,"tokens":10,"baseline_correct":true,"gradeable":true,"correct":true,"fingerprint":"bfp","output_tokens":7}');
INSERT INTO budget_aware_grid (model, mode, dataset, problem_id, fingerprint) VALUES ('m', 'standard', 'd', 'p1', 'bfp');
INSERT INTO claims (key, worker, expires_at) VALUES ('other', 'w0', 9000000000000000);
INSERT INTO builds (build, command, info, first_used, last_used) VALUES ('v1.0.0', 'run', '{"Version":"v1.0.0"}', 1, 2);
