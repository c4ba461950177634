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
func listQuerySQL(q ListQuery, after *cursor, limit int, ph func(n int) string) (string, []any) {
	var conds []string
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return ph(len(args))
	}
	if q.Solver != nil {
		conds = append(conds, "model = "+arg(q.Solver.Model), "mode = "+arg(q.Solver.Mode))
	}
	if q.Dataset != "" {
		conds = append(conds, "dataset = "+arg(q.Dataset))
	}
	order := keyColumns
	if after != nil {
		cols, vals := keyColumns, arg(after.Solver.Model)+", "+arg(after.Solver.Mode)+", "+
			arg(after.Dataset)+", "+arg(after.ProblemID)
		if q.AllSamples {
			cols, vals = samplesTable.key, vals+", "+arg(after.Sample)
		}
		conds = append(conds, "("+cols+") > ("+vals+")")
	}
	if q.AllSamples {
		order = samplesTable.key
	}
	from, columns := source(q.AllSamples)
	var b strings.Builder
	b.WriteString("SELECT " + columns + " FROM " + from)
	if len(conds) > 0 {
		b.WriteString(" WHERE " + strings.Join(conds, " AND "))
	}
	b.WriteString(" ORDER BY " + order + " LIMIT " + arg(limit))
	return b.String(), args
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
