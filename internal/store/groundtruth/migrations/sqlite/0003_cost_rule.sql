-- Every stored cost names the SPEC §1 rule that gave it (package costrule;
-- the store validates the names). Rows stored before this version did not
-- record it and say so: 'unknown'.
ALTER TABLE ground_truth ADD COLUMN cost_rule TEXT NOT NULL DEFAULT 'unknown';
