package runstore

import "github.com/triage-eval/triage/internal/store/sqldb"

// runMigrations[d][v] takes a store of dialect d from schema version v to
// v+1; the latest version is len(runMigrations[d]).
var runMigrations = map[sqldb.Dialect][]string{
	sqldb.SQLite:   sqliteRunMigrations,
	sqldb.Postgres: postgresRunMigrations,
}

// sqliteRunMigrations: 1 is the schema of the first releases (created with
// IF NOT EXISTS, so that their stores, at user_version 0, take it as a
// no-op), 2 adds freshness (SPEC §5), 3 the workers' claims, 4 the count
// of items graded on public tests alone, 5 the builds that touched the run.
var sqliteRunMigrations = []string{
	`CREATE TABLE IF NOT EXISTS manifest (
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
	);`,
	// Each cell records the fingerprint of its inputs ("" for cells stored
	// before: they count as stale); grid_cells and budget_aware_grid the
	// fingerprint every unit of the latest run should have. Accuracy counts
	// unsolvable items and lucky guesses.
	`ALTER TABLE cells ADD COLUMN fingerprint TEXT NOT NULL DEFAULT '';
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
	);`,
	claimsTable,
	publicTestsOnlyColumn,
	buildsTable,
}

// postgresRunMigrations starts at the schema SQLite reaches at version 3.
// Key columns use the "C" collation, so keys sort bytewise as in SQLite.
var postgresRunMigrations = []string{
	`CREATE TABLE manifest (
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
	);`,
	``, // version 2 is part of version 1 here
	claimsTable,
	publicTestsOnlyColumn,
	buildsTable,
}

// publicTestsOnlyColumn counts, per accuracy row, the gradeable items
// graded on public tests alone. Every run rewrites its accuracy rows; those
// of a store not run since read 0.
const publicTestsOnlyColumn = `ALTER TABLE accuracy ADD COLUMN public_tests_only INTEGER NOT NULL DEFAULT 0`

// claimsTable holds the leases of the workers computing units (cells,
// baseline items, re-solves): who holds each unit and until when (unix
// microseconds of the workers' clocks).
const claimsTable = `CREATE TABLE claims (
	key        TEXT PRIMARY KEY,
	worker     TEXT NOT NULL,
	expires_at BIGINT NOT NULL
)`

// buildsTable records which builds of triage ran which command on the run
// (version.Info as JSON under its one-line form), first and last (unix
// microseconds).
const buildsTable = `CREATE TABLE builds (
	build      TEXT NOT NULL,
	command    TEXT NOT NULL,
	info       TEXT NOT NULL,
	first_used BIGINT NOT NULL,
	last_used  BIGINT NOT NULL,
	PRIMARY KEY (build, command)
)`
