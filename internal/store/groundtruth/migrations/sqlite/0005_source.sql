-- A record imported from another harness's log (triage import-ground-truth)
-- names it as FILE#SAMPLE; records TRIAGE measured itself, and every row
-- stored before this version, have none: ''.
ALTER TABLE ground_truth ADD COLUMN source TEXT NOT NULL DEFAULT '';
