-- Repeated Phase 0 (SPEC §9): samples 2..k of a (solver, dataset, problem).
-- Sample 1 is the ground truth and stays in ground_truth; this table has the
-- same columns plus the sample index, part of the key.
CREATE TABLE ground_truth_samples (
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
    lucky_guess     INTEGER NOT NULL CHECK (lucky_guess IN (0, 1)),
    cost_rule       TEXT    NOT NULL,
    sample          INTEGER NOT NULL CHECK (sample >= 2),
    PRIMARY KEY (model, mode, dataset, problem_id, sample)
) STRICT, WITHOUT ROWID;
