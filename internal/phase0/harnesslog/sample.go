package harnesslog

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Harness names a log format.
type Harness string

// The formats read.
const (
	// Inspect is inspect_ai (.eval archives and .json logs).
	Inspect Harness = "inspect"
	// LMEval is lm-evaluation-harness (samples_*.jsonl, --log_samples).
	LMEval Harness = "lm-eval"
)

// Sample is one logged sample, whatever the harness.
type Sample struct {
	// Harness is the format the sample was read from.
	Harness Harness
	// File is the log's name as given.
	File string
	// Ref locates the sample in File: "id=ID,epoch=N" (inspect_ai) or
	// "line=N,doc_id=ID" (lm-evaluation-harness).
	Ref string
	// Index is the sample's 0-based position in File.
	Index int
	// Epoch is inspect_ai's epoch (1 for lm-evaluation-harness).
	Epoch int
	// Model is the model the log names ("" when it names none).
	Model string
	// Fields are the sample's top-level JSON fields, for Match's key, less
	// the bulky ones no key names (bulkyFields).
	Fields map[string]json.RawMessage
	// Text is the question text a text match uses by default (inspect_ai:
	// the input, or its last user message), "" when the log has none.
	Text string
	// Output and Reasoning are the token counts the harness reports; nil
	// when absent.
	Output, Reasoning *int64
	// OutputField names where Output was read, for messages.
	OutputField string
	// Scores are the sample's scores by scorer or metric name, as JSON.
	Scores map[string]json.RawMessage
	// ScoreField names where Scores were read ("scores", or the metric
	// keys), for messages.
	ScoreField string
	// Filter is lm-evaluation-harness's filter of the sample's responses
	// ("" for inspect_ai): a task with several filters logs each document
	// once per filter.
	Filter string
	// Error is the harness's error for the sample, "" when none.
	Error string
	// FinishReason, Latency and Started are kept on the record when known.
	FinishReason string
	Latency      time.Duration
	Started      time.Time
	// LogStatus is the inspect_ai log's status ("success", "error",
	// "cancelled", "started"); "" for lm-evaluation-harness, whose samples
	// files are written when a task ends.
	LogStatus string
	// Truncated says the harness reports the output cut at a token limit
	// (inspect_ai stop_reason max_tokens or model_length): y is then 0
	// whatever the score, the rule Phase 0 applies to its own answers
	// (SPEC §1; package solving).
	Truncated bool
	// CompletionSHA256 is the hex SHA-256 of the logged answer text (the
	// record's response_sha256), "" when the log has none.
	CompletionSHA256 string
}

// Where names the sample in messages: "file: sample id=…,epoch=…".
func (s *Sample) Where() string { return s.File + ": sample " + s.Ref }

// Source is the sample's source as records store it: FILE#REF.
func (s *Sample) Source() string { return s.File + "#" + s.Ref }

// Issue is one thing wrong with a log or a sample.
type Issue struct {
	// Where names the file and sample ("file: sample id=3,epoch=1"), or the
	// file (and archive member or line).
	Where string
	// Field is the field at fault ("" when the whole sample is).
	Field string
	// Reason says what is wrong.
	Reason string
}

// MaxIssues is how many issues an Error lists before it stops.
const MaxIssues = 50

// Error lists what is wrong with one or more logs; nothing was converted.
type Error struct {
	// Issues in file and sample order.
	Issues []Issue
	// Truncated reports that more issues were found than listed.
	Truncated bool
}

// Error renders one issue per line: "where: field: reason".
func (e *Error) Error() string {
	var b strings.Builder
	for i, is := range e.Issues {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(is.Where + ": ")
		if is.Field != "" {
			b.WriteString(is.Field + ": ")
		}
		b.WriteString(is.Reason)
	}
	if e.Truncated {
		fmt.Fprintf(&b, "\n(more issues; stopped after %d)", len(e.Issues))
	}
	return b.String()
}

// add records an issue; it reports false once MaxIssues are listed.
func (e *Error) add(where, field, format string, args ...any) bool {
	if len(e.Issues) >= MaxIssues {
		e.Truncated = true
		return false
	}
	e.Issues = append(e.Issues, Issue{Where: where, Field: field, Reason: fmt.Sprintf(format, args...)})
	return true
}

// err returns e, or nil when it lists nothing.
func (e *Error) err() error {
	if len(e.Issues) == 0 {
		return nil
	}
	return e
}

// fileErr is an Error of one issue.
func fileErr(where, field, format string, args ...any) error {
	e := &Error{}
	e.add(where, field, format, args...)
	return e
}

// bulkyFields are the fields of a logged sample that Fields drops: the
// transcript, the model output and its usage (read apart), and the
// harness's request arguments and responses, which may be far larger than
// the rest and are never an id or a question.
var bulkyFields = []string{
	"events", "events_data", "messages", "attachments", "store", "output", "timelines",
	"model_usage", "role_usage", "arguments", "resps", "filtered_resps",
}

// keepFields drops bulkyFields from a sample's fields.
func keepFields(fields map[string]json.RawMessage) map[string]json.RawMessage {
	for _, k := range bulkyFields {
		delete(fields, k)
	}
	return fields
}

// sha256Hex is the hex SHA-256 of a non-empty text, else "".
func sha256Hex(text string) string {
	if text == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}
