-- A run store as the releases before the shared migrator (sqldb.Migrate)
-- wrote it at schema version 5: their DDL, verbatim, their version record
-- (the table run_schema) and a row in every table. Frozen: never edit.
CREATE TABLE IF NOT EXISTS run_schema (version integer NOT NULL);
CREATE TABLE manifest (
		id       integer PRIMARY KEY CHECK (id = 1),
		config   text NOT NULL,
		pools    text NOT NULL
	);
	CREATE TABLE cells (
		key         text COLLATE "C" PRIMARY KEY,
		plan        text NOT NULL,
		excluded    text NOT NULL,
		detail      text NOT NULL,
		done_at     bigint NOT NULL,
		fingerprint text NOT NULL DEFAULT ''
	);
	CREATE TABLE scores (
		key      text COLLATE "C" NOT NULL REFERENCES cells(key),
		regime   text COLLATE "C" NOT NULL,
		record   text NOT NULL,
		PRIMARY KEY (key, regime)
	);
	CREATE TABLE budget_aware (
		model text COLLATE "C" NOT NULL, mode text COLLATE "C" NOT NULL, dataset text COLLATE "C" NOT NULL, problem_id text COLLATE "C" NOT NULL,
		record text NOT NULL,
		PRIMARY KEY (model, mode, dataset, problem_id)
	);
	CREATE TABLE accuracy (
		model text COLLATE "C" NOT NULL, mode text COLLATE "C" NOT NULL, dataset text COLLATE "C" NOT NULL,
		correct integer NOT NULL, gradeable integer NOT NULL,
		unsolvable integer NOT NULL DEFAULT 0, lucky_guesses integer NOT NULL DEFAULT 0,
		PRIMARY KEY (model, mode, dataset)
	);
	CREATE TABLE grid_cells (
		key         text COLLATE "C" PRIMARY KEY,
		fingerprint text NOT NULL
	);
	CREATE TABLE budget_aware_grid (
		model text COLLATE "C" NOT NULL, mode text COLLATE "C" NOT NULL, dataset text COLLATE "C" NOT NULL, problem_id text COLLATE "C" NOT NULL,
		fingerprint text NOT NULL,
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
INSERT INTO run_schema (version) VALUES (5);
INSERT INTO manifest (id, config, pools) VALUES (1, '{}', '{"partitions":{"d":[{"index":0,"problem_ids":["p1","p2"]}]}}');
INSERT INTO cells (key, plan, excluded, detail, done_at, fingerprint) VALUES ('k', '', '', '', 1, 'fp');
INSERT INTO scores (key, regime, record) VALUES ('k', 'U', '{"model":"m","mode":"standard","dataset":"d","pool":0,"alpha":0.5,"variant":"default","strategy":"llm","regime":"U","value":1,"oracle":2,"random":0,"random_stderr":0,"eta":0.5,"regret":0,"regret_defined":false,"pool_size":2,"dropped":0}');
INSERT INTO grid_cells (key, fingerprint) VALUES ('k', 'fp');
INSERT INTO accuracy (model, mode, dataset, correct, gradeable, unsolvable, lucky_guesses, public_tests_only) VALUES ('m', 'standard', 'd', 3, 4, 1, 0, 2);
INSERT INTO budget_aware (model, mode, dataset, problem_id, record) VALUES ('m', 'standard', 'd', 'p1', '{"model":"m","mode":"standard","dataset":"d","problem_id":"p1","pool":0,"tokens":10,"baseline_correct":true,"gradeable":true,"correct":true,"fingerprint":"bfp","output_tokens":7}');
INSERT INTO budget_aware_grid (model, mode, dataset, problem_id, fingerprint) VALUES ('m', 'standard', 'd', 'p1', 'bfp');
INSERT INTO claims (key, worker, expires_at) VALUES ('other', 'w0', 9000000000000000);
INSERT INTO builds (build, command, info, first_used, last_used) VALUES ('v1.0.0', 'run', '{"Version":"v1.0.0"}', 1, 2);
