-- A record imported from another harness's log (triage import-ground-truth)
-- names it as FILE#SAMPLE (ground truth and samples alike); records TRIAGE measured itself, and every row
-- stored before this version, have none: ''.
ALTER TABLE ground_truth ADD COLUMN source TEXT NOT NULL DEFAULT '';
ALTER TABLE ground_truth_samples ADD COLUMN source TEXT NOT NULL DEFAULT '';
