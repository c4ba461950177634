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
