-- Freshness (SPEC §5): each cell records the fingerprint of its inputs (""
-- for cells stored before: they count as stale); grid_cells and
-- budget_aware_grid the fingerprint every unit of the latest run should
-- have. Accuracy counts unsolvable items and lucky guesses.
ALTER TABLE cells ADD COLUMN fingerprint TEXT NOT NULL DEFAULT '';
CREATE TABLE grid_cells (
	key         TEXT PRIMARY KEY,
	fingerprint TEXT NOT NULL
);
ALTER TABLE accuracy ADD COLUMN unsolvable INTEGER NOT NULL DEFAULT 0;
ALTER TABLE accuracy ADD COLUMN lucky_guesses INTEGER NOT NULL DEFAULT 0;
CREATE TABLE budget_aware_grid (
	model TEXT NOT NULL, mode TEXT NOT NULL, dataset TEXT NOT NULL, problem_id TEXT NOT NULL,
	fingerprint TEXT NOT NULL,
	PRIMARY KEY (model, mode, dataset, problem_id)
);
