-- Every record names the problem it measured by its digest (problems.Digest:
-- hex SHA-256 of its text, grading data and unsolvable mark), ground truth
-- and samples alike; a record whose problem now digests differently is
-- stale. Records imported without one, and every row stored before this
-- version, do not say: ''.
ALTER TABLE ground_truth ADD COLUMN problem_sha256 TEXT NOT NULL DEFAULT '';
ALTER TABLE ground_truth_samples ADD COLUMN problem_sha256 TEXT NOT NULL DEFAULT '';
