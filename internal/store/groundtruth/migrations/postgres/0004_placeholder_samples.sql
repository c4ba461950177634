-- PLACEHOLDER on branch importlogs only: version 4 is reserved for the samples
-- helper's migration (shared RESERVE.md); this no-op keeps the versions
-- gapless until that branch is merged. Delete this file when merging.
SELECT 1;
