-- Repeated Phase 0 (SPEC §9): samples 2..k of a (solver, dataset, problem).
-- Sample 1 is the ground truth and stays in ground_truth; this table has the
-- same columns plus the sample index, part of the key.
CREATE TABLE ground_truth_samples (
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
    lucky_guess     boolean     NOT NULL,
    cost_rule       text        NOT NULL,
    sample          integer     NOT NULL CHECK (sample >= 2),
    PRIMARY KEY (model, mode, dataset, problem_id, sample)
);
