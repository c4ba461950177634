package groundtruth

import (
	"strings"
)

// sqliteBatchRows is how many records one upsert statement carries: 16
// variables a row (17 for a sample) stays far below SQLite's 32766-variable
// limit, and batches amortize the per-statement cost that dominates
// row-at-a-time inserts.
const sqliteBatchRows = 256

// sqliteUpsertSQL is a multi-row upsert of rows records into t. A row whose key
// exists is updated only when a value column differs, so changes() (rows
// affected) counts inserted plus updated rows. Rows are applied in order, so
// a key repeated in one statement ends with its last record.
func sqliteUpsertSQL(t table, rows int) string {
	var b strings.Builder
	b.WriteString("INSERT INTO " + t.name + " (")
	b.WriteString(t.selectList())
	b.WriteString(") VALUES ")
	writePlaceholderRows(&b, rows, len(t.columns))
	b.WriteString(" ON CONFLICT (" + t.key + ") DO UPDATE SET ")
	for i, c := range valueColumns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c + " = excluded." + c)
	}
	b.WriteString(" WHERE (")
	for i, c := range valueColumns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(t.name + "." + c)
	}
	b.WriteString(") IS NOT (")
	for i, c := range valueColumns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("excluded." + c)
	}
	b.WriteString(")")
	return b.String()
}

// sqliteExistsSQL counts the stored rows of t whose key is among rows keys
// (a key listed twice counts once).
func sqliteExistsSQL(t table, rows int) string {
	var b strings.Builder
	b.WriteString("SELECT count(*) FROM " + t.name + " WHERE (" + t.key + ") IN (VALUES ")
	writePlaceholderRows(&b, rows, t.keyWidth)
	b.WriteString(")")
	return b.String()
}

// sqliteExistsInGroupSQL counts the stored rows of one (model, mode,
// dataset) whose problem id is among ids ids: the common case of a batch,
// binding one value a row instead of four.
func sqliteExistsInGroupSQL(ids int) string {
	return "SELECT count(*) FROM ground_truth WHERE model = ? AND mode = ? AND dataset = ? AND problem_id IN (" +
		strings.TrimSuffix(strings.Repeat("?, ", ids), ", ") + ")"
}

// writePlaceholderRows writes rows groups of cols "?" placeholders.
func writePlaceholderRows(b *strings.Builder, rows, cols int) {
	group := "(" + strings.TrimSuffix(strings.Repeat("?, ", cols), ", ") + ")"
	for i := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(group)
	}
}
