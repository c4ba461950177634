-- An unsolvable item scores y = 0 (SPEC §1); lucky_guess keeps, for audit,
-- that the grader nevertheless accepted its answer.
ALTER TABLE ground_truth ADD COLUMN lucky_guess boolean NOT NULL DEFAULT false;
