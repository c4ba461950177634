package groundtruth

import (
	"strings"
)

// listQuerySQL returns the statement and arguments that select the page of
// q after key after (nil: from the start), limit rows, in key order. ph
// renders the n-th (1-based) placeholder of the dialect.
func listQuerySQL(q ListQuery, after *Key, limit int, ph func(n int) string) (string, []any) {
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
	if after != nil {
		conds = append(conds, "("+keyColumns+") > ("+arg(after.Solver.Model)+", "+arg(after.Solver.Mode)+", "+
			arg(after.Dataset)+", "+arg(after.ProblemID)+")")
	}
	var b strings.Builder
	b.WriteString("SELECT " + selectColumns + " FROM ground_truth")
	if len(conds) > 0 {
		b.WriteString(" WHERE " + strings.Join(conds, " AND "))
	}
	b.WriteString(" ORDER BY " + keyColumns + " LIMIT " + arg(limit))
	return b.String(), args
}

// finishPage trims records fetched with limit size+1 to one page and sets
// the token that continues after its last record.
func finishPage(q ListQuery, size int, records []Record) Page {
	if len(records) <= size {
		return Page{Records: records}
	}
	records = records[:size]
	return Page{Records: records, NextPageToken: encodePageToken(q, records[size-1].Key)}
}
