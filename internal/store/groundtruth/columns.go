package groundtruth

import "strings"

// recordColumns are the columns of ground_truth in the order both backends
// bind and scan them.
var recordColumns = []string{
	"model", "mode", "dataset", "problem_id",
	"cost", "correct", "gradeable", "finish_reason",
	"latency_us", "response_sha256", "error", "measured_at",
	"lucky_guess", "cost_rule", "source", "problem_sha256",
}

// keyColumns are the primary key columns, in key order.
const keyColumns = "model, mode, dataset, problem_id"

// valueColumns are the non-key columns; an upsert changes a row only when
// one of them differs.
var valueColumns = recordColumns[4:]

// selectColumns is recordColumns as a select list.
var selectColumns = strings.Join(recordColumns, ", ")

// table is one of the two tables records live in: the ground truth
// (sample 1) or the further samples, whose key adds the sample index.
type table struct {
	// name is the SQL table name.
	name string
	// columns are bound and scanned in this order: recordColumns, then
	// "sample" for the samples table.
	columns []string
	// key lists the primary key columns in key order; keyWidth counts them.
	key      string
	keyWidth int
}

// groundTruthTable holds sample 1 of every key, as before samples existed.
var groundTruthTable = table{name: "ground_truth", columns: recordColumns, key: keyColumns, keyWidth: 4}

// samplesTable holds samples 2.. (Record.Sample ≥ 2).
var samplesTable = table{
	name:     "ground_truth_samples",
	columns:  append(recordColumns[:len(recordColumns):len(recordColumns)], "sample"),
	key:      keyColumns + ", sample",
	keyWidth: 5,
}

// selectList is t's columns as a select list.
func (t table) selectList() string { return strings.Join(t.columns, ", ") }

// allSamplesSource is a FROM item with every sample of every key, both
// tables' rows as samplesTable's columns (sample 0 for the ground truth).
var allSamplesSource = "(SELECT " + selectColumns + ", 0 AS sample FROM ground_truth UNION ALL SELECT " +
	selectColumns + ", sample FROM ground_truth_samples) AS all_samples"

// source returns the FROM item and select list of a read: the ground truth
// alone, or (allSamples) every sample, with the sample column last.
func source(allSamples bool) (from, columns string) {
	if allSamples {
		return allSamplesSource, samplesTable.selectList()
	}
	return groundTruthTable.name, selectColumns
}
