package groundtruth

import "strings"

// recordColumns are the columns of ground_truth in the order both backends
// bind and scan them.
var recordColumns = []string{
	"model", "mode", "dataset", "problem_id",
	"cost", "correct", "gradeable", "finish_reason",
	"latency_us", "response_sha256", "error", "measured_at",
	"lucky_guess", "cost_rule", "source",
}

// keyColumns are the primary key columns, in key order.
const keyColumns = "model, mode, dataset, problem_id"

// valueColumns are the non-key columns; an upsert changes a row only when
// one of them differs.
var valueColumns = recordColumns[4:]

// selectColumns is recordColumns as a select list.
var selectColumns = strings.Join(recordColumns, ", ")
