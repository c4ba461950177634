-- A ground-truth store as the releases before the shared migrator
-- (sqldb.Migrate) wrote it at schema version 3: their ledger DDL and
-- migrations, verbatim, the versions applied and one record. Frozen: never
-- edit.
CREATE TABLE IF NOT EXISTS schema_migrations (
		version    bigint      PRIMARY KEY,
		applied_at timestamptz NOT NULL
	);
-- Ground truth of Phase 0 (SPEC §1): one row per (solver, dataset, problem).
-- latency_us is whole microseconds; measured_at keeps microseconds. Key
-- columns use the "C" collation so keys sort bytewise, as in SQLite and Go.
CREATE TABLE ground_truth (
    model           text        COLLATE "C" NOT NULL,
    mode            text        COLLATE "C" NOT NULL,
    dataset         text        COLLATE "C" NOT NULL,
    problem_id      text        COLLATE "C" NOT NULL,
    cost            bigint      NOT NULL CHECK (cost >= 0),
    correct         boolean     NOT NULL,
    gradeable       boolean     NOT NULL,
    finish_reason   text        NOT NULL,
    latency_us      bigint      NOT NULL CHECK (latency_us >= 0),
    response_sha256 text        NOT NULL,
    error           text        NOT NULL,
    measured_at     timestamptz NOT NULL,
    PRIMARY KEY (model, mode, dataset, problem_id)
);
-- An unsolvable item scores y = 0 (SPEC §1); lucky_guess keeps, for audit,
-- that the grader nevertheless accepted its answer.
ALTER TABLE ground_truth ADD COLUMN lucky_guess boolean NOT NULL DEFAULT false;
-- Every stored cost names the SPEC §1 rule that gave it (package costrule;
-- the store validates the names). Rows stored before this version did not
-- record it and say so: 'unknown'.
ALTER TABLE ground_truth ADD COLUMN cost_rule text NOT NULL DEFAULT 'unknown';
INSERT INTO schema_migrations (version, applied_at) VALUES (1, '2023-11-14T22:13:20Z'), (2, '2023-11-14T22:13:21Z'), (3, '2023-11-14T22:13:22Z');
INSERT INTO ground_truth VALUES ('m', 'standard', 'ds', 'p1', 10, true, true, 'stop', 5, 'abc', '', '2023-11-14T22:13:20Z', false, 'completion');
