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
