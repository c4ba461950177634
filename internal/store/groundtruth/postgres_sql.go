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
	source          text        NOT NULL
) ON COMMIT DROP`

// pgImportLockSQL takes the transaction-scoped advisory lock that
// serializes the merges of imports into the current schema.
const pgImportLockSQL = `SELECT pg_advisory_xact_lock(hashtext('triage/store/import:' || coalesce(current_schema(), '')))`

// pgStagingColumns are the COPY columns of the staging table.
var pgStagingColumns = append([]string{"seq"}, recordColumns...)

// pgMergeSQL merges the staging table into ground_truth and returns
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
var pgMergeSQL = func() string {
	vals := strings.Join(valueColumns, ", ")
	prefixed := func(p string) string {
		return p + strings.Join(valueColumns, ", "+p)
	}
	return `WITH s AS MATERIALIZED (
	SELECT ` + selectColumns + `,
		row_number() OVER w AS rn,
		lead(seq) OVER w IS NULL AS last,
		lag(ROW(` + vals + `)) OVER w AS prev
	FROM ` + pgStagingTable + `
	WINDOW w AS (PARTITION BY ` + keyColumns + ` ORDER BY seq)
), counts AS (
	SELECT
		count(*) FILTER (WHERE s.rn = 1 AND g.model IS NULL) AS inserted,
		count(*) FILTER (WHERE CASE
			WHEN s.rn = 1 THEN g.model IS NOT NULL AND (` + prefixed("g.") + `) IS DISTINCT FROM (` + prefixed("s.") + `)
			ELSE s.prev IS DISTINCT FROM ROW(` + prefixed("s.") + `)
		END) AS updated
	FROM s LEFT JOIN ground_truth g
		ON (g.model, g.mode, g.dataset, g.problem_id) = (s.model, s.mode, s.dataset, s.problem_id)
), merged AS (
	INSERT INTO ground_truth (` + selectColumns + `)
	SELECT ` + selectColumns + ` FROM s WHERE s.last
	ON CONFLICT (` + keyColumns + `) DO UPDATE SET ` + setExcluded() + `
	WHERE (` + prefixed("ground_truth.") + `) IS DISTINCT FROM (` + prefixed("EXCLUDED.") + `)
)
SELECT inserted, updated FROM counts`
}()

// setExcluded is the SET list of an upsert that takes every value column
// from the proposed row.
func setExcluded() string {
	parts := make([]string, len(valueColumns))
	for i, c := range valueColumns {
		parts[i] = c + " = EXCLUDED." + c
	}
	return strings.Join(parts, ", ")
}
