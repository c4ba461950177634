package groundtruth

import (
	"strings"
)

// pgStagingTable receives an import's records by COPY before the merge. It
// is a temporary table dropped at commit (or with the rolled-back
// transaction); seq is the record's position in the import.
const pgStagingTable = "ground_truth_import"

// pgCreateStagingSQL creates the staging table in the import transaction.
const pgCreateStagingSQL = `CREATE TEMP TABLE ` + pgStagingTable + ` (
	seq             bigint      NOT NULL,
	model           text        COLLATE "C" NOT NULL,
	mode            text        COLLATE "C" NOT NULL,
	dataset         text        COLLATE "C" NOT NULL,
	problem_id      text        COLLATE "C" NOT NULL,
	cost            bigint      NOT NULL,
	correct         boolean     NOT NULL,
	gradeable       boolean     NOT NULL,
	finish_reason   text        NOT NULL,
	latency_us      bigint      NOT NULL,
	response_sha256 text        NOT NULL,
	error           text        NOT NULL,
	measured_at     timestamptz NOT NULL,
	lucky_guess     boolean     NOT NULL,
	cost_rule       text        NOT NULL,
	source          text        NOT NULL,
	problem_sha256  text        NOT NULL,
	sample          integer     NOT NULL
) ON COMMIT DROP`

// pgImportLockSQL takes the transaction-scoped advisory lock that
// serializes the merges of imports into the current schema.
const pgImportLockSQL = `SELECT pg_advisory_xact_lock(hashtext('triage/store/import:' || coalesce(current_schema(), '')))`

// pgStagingColumns are the COPY columns of the staging table.
// (the samples table's columns: sample is 0 for the ground truth).
var pgStagingColumns = append([]string{"seq"}, samplesTable.columns...)

// pgMergeSQL merges the staging table's rows of table t (the ground truth:
// sample 0; the samples table: sample ≥ 2) into t and returns
// (inserted, updated) as if the records had been applied one at a time in
// seq order: per key, the first record is Inserted when the key is not
// stored, Updated when it differs from the stored row; each later record of
// the same key is Updated when it differs from the record before it. Only
// the last record of each key is written (so ON CONFLICT touches a row
// once), and only when it differs from the stored row. All parts of the
// statement see ground_truth as it was before it, so the counts compare
// against the old rows; the INSERT runs to completion although the final
// SELECT does not read it (PostgreSQL always executes data-modifying WITH
// parts).
func pgMergeSQL(t table) string {
	vals := strings.Join(valueColumns, ", ")
	prefixed := func(p string) string {
		return p + strings.Join(valueColumns, ", "+p)
	}
	keys := strings.Split(t.key, ", ")
	where := "sample = 0"
	if t.keyWidth == 5 {
		where = "sample >= 2"
	}
	return `WITH s AS MATERIALIZED (
	SELECT ` + t.selectList() + `,
		row_number() OVER w AS rn,
		lead(seq) OVER w IS NULL AS last,
		lag(ROW(` + vals + `)) OVER w AS prev
	FROM ` + pgStagingTable + `
	WHERE ` + where + `
	WINDOW w AS (PARTITION BY ` + t.key + ` ORDER BY seq)
), counts AS (
	SELECT
		count(*) FILTER (WHERE s.rn = 1 AND g.model IS NULL) AS inserted,
		count(*) FILTER (WHERE CASE
			WHEN s.rn = 1 THEN g.model IS NOT NULL AND (` + prefixed("g.") + `) IS DISTINCT FROM (` + prefixed("s.") + `)
			ELSE s.prev IS DISTINCT FROM ROW(` + prefixed("s.") + `)
		END) AS updated
	FROM s LEFT JOIN ` + t.name + ` g
		ON (g.` + strings.Join(keys, ", g.") + `) = (s.` + strings.Join(keys, ", s.") + `)
), merged AS (
	INSERT INTO ` + t.name + ` (` + t.selectList() + `)
	SELECT ` + t.selectList() + ` FROM s WHERE s.last
	ON CONFLICT (` + t.key + `) DO UPDATE SET ` + setExcluded() + `
	WHERE (` + prefixed(t.name+".") + `) IS DISTINCT FROM (` + prefixed("EXCLUDED.") + `)
)
SELECT inserted, updated FROM counts`
}

// The merges of both tables, built once.
var (
	pgMergeGroundTruthSQL = pgMergeSQL(groundTruthTable)
	pgMergeSamplesSQL     = pgMergeSQL(samplesTable)
)

// setExcluded is the SET list of an upsert that takes every value column
// from the proposed row.
func setExcluded() string {
	parts := make([]string, len(valueColumns))
	for i, c := range valueColumns {
		parts[i] = c + " = EXCLUDED." + c
	}
	return strings.Join(parts, ", ")
}
