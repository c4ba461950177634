-- A ground-truth store as the releases before the shared migrator
-- (sqldb.Migrate) wrote it at schema version 3: their ledger DDL and
-- migrations, verbatim, the versions applied and one record. Frozen: never
-- edit.
CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		applied_at INTEGER NOT NULL -- unix microseconds UTC
	) STRICT;
-- Ground truth of Phase 0 (SPEC §1): one row per (solver, dataset, problem).
-- Booleans are 0/1; latency_us is whole microseconds; measured_at is unix
-- microseconds UTC. WITHOUT ROWID keeps one B-tree (the primary key) so an
-- import writes each row once.
CREATE TABLE ground_truth (
    model           TEXT    NOT NULL,
    mode            TEXT    NOT NULL,
    dataset         TEXT    NOT NULL,
    problem_id      TEXT    NOT NULL,
    cost            INTEGER NOT NULL CHECK (cost >= 0),
    correct         INTEGER NOT NULL CHECK (correct IN (0, 1)),
    gradeable       INTEGER NOT NULL CHECK (gradeable IN (0, 1)),
    finish_reason   TEXT    NOT NULL,
    latency_us      INTEGER NOT NULL CHECK (latency_us >= 0),
    response_sha256 TEXT    NOT NULL,
    error           TEXT    NOT NULL,
    measured_at     INTEGER NOT NULL,
    PRIMARY KEY (model, mode, dataset, problem_id)
) STRICT, WITHOUT ROWID;
-- An unsolvable item scores y = 0 (SPEC §1); lucky_guess keeps, for audit,
-- that the grader nevertheless accepted its answer.
ALTER TABLE ground_truth ADD COLUMN lucky_guess INTEGER NOT NULL DEFAULT 0 CHECK (lucky_guess IN (0, 1));
-- Every stored cost names the SPEC §1 rule that gave it (package costrule;
-- the store validates the names). Rows stored before this version did not
-- record it and say so: 'unknown'.
ALTER TABLE ground_truth ADD COLUMN cost_rule TEXT NOT NULL DEFAULT 'unknown';
INSERT INTO schema_migrations (version, applied_at) VALUES (1, 1700000000000000), (2, 1700000001000000), (3, 1700000002000000);
INSERT INTO ground_truth VALUES ('m', 'standard', 'ds', 'p1', 10, 1, 1, 'stop', 5, 'abc', '', 1700000000000000, 0, 'completion');
