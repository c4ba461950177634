-- The schema SQLite reaches at version 2: PostgreSQL stores start there.
-- Key columns use the "C" collation, so keys sort bytewise as in SQLite.
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
