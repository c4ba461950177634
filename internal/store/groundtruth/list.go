package groundtruth

import (
	"strings"
)

// cursor is where a page continues: after key and, when listing every
// sample, after its sample.
type cursor struct {
	Key
	Sample int
}

// listQuerySQL returns the statement and arguments that select the page of
// q after after (nil: from the start), limit rows, in key order (then
// sample order with q.AllSamples, whose rows end with the sample column).
// ph renders the n-th (1-based) placeholder of the dialect.
//
// With q.AllSamples each table gives at most limit rows of its own, read
// in primary key order, and only those 2·limit rows are merged and sorted:
// a page costs the same wherever it starts.
func listQuerySQL(q ListQuery, after *cursor, limit int, ph func(n int) string) (string, []any) {
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return ph(len(args))
	}
	// selectFrom selects t's page: from, the FROM item; extra, what follows
	// the record columns; sample, whether the cursor's sample is a column.
	selectFrom := func(t table, extra string, sample bool) string {
		var conds []string
		if q.Solver != nil {
			conds = append(conds, "model = "+arg(q.Solver.Model), "mode = "+arg(q.Solver.Mode))
		}
		if q.Dataset != "" {
			conds = append(conds, "dataset = "+arg(q.Dataset))
		}
		if after != nil {
			cols, vals := keyColumns, arg(after.Solver.Model)+", "+arg(after.Solver.Mode)+", "+
				arg(after.Dataset)+", "+arg(after.ProblemID)
			if sample {
				cols, vals = t.key, vals+", "+arg(after.Sample)
			}
			// The ground truth is sample 0 of its key, at or before any
			// cursor on that key, so its rows continue after the key.
			conds = append(conds, "("+cols+") > ("+vals+")")
		}
		var b strings.Builder
		b.WriteString("SELECT " + selectColumns + extra + " FROM " + t.name)
		if len(conds) > 0 {
			b.WriteString(" WHERE " + strings.Join(conds, " AND "))
		}
		b.WriteString(" ORDER BY " + t.key + " LIMIT " + arg(limit))
		return b.String()
	}
	if !q.AllSamples {
		return selectFrom(groundTruthTable, "", false), args
	}
	gt := selectFrom(groundTruthTable, ", 0 AS sample", false)
	samples := selectFrom(samplesTable, ", sample", true)
	return "SELECT " + samplesTable.selectList() + " FROM (SELECT * FROM (" + gt + ") AS g UNION ALL SELECT * FROM (" +
		samples + ") AS s) AS all_samples ORDER BY " + samplesTable.key + " LIMIT " + arg(limit), args
}

// finishPage trims records fetched with limit size+1 to one page and sets
// the token that continues after its last record.
func finishPage(q ListQuery, size int, records []Record) Page {
	if len(records) <= size {
		return Page{Records: records}
	}
	records = records[:size]
	last := records[size-1]
	return Page{Records: records, NextPageToken: encodePageToken(q, cursor{last.Key, last.Sample})}
}

// groupSamples collects records (in key then sample order) by problem id.
func groupSamples(out map[string][]Record, r Record) {
	out[r.ProblemID] = append(out[r.ProblemID], r)
}
