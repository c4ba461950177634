-- Per accuracy row, the gradeable items graded on public tests alone.
-- Every run rewrites its accuracy rows; those of a store not run since
-- read 0.
ALTER TABLE accuracy ADD COLUMN public_tests_only INTEGER NOT NULL DEFAULT 0;
