package problems

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/triage-eval/triage/internal/protocol/pool"

	"github.com/triage-eval/triage/internal/platform/jsonloc"
)

// Field limits.
const (
	MaxIDBytes      = pool.MaxIDBytes
	MaxDatasetBytes = 128 // the ground-truth store's limit
	MaxValue        = 1e12
)

// keys lists the allowed keys in the order they are checked.
var keys = []string{"id", "dataset", "text", "value", "grading", "unsolvable"}

// parseLine decodes and checks one non-blank line.
func parseLine(line []byte) (Problem, []Issue) {
	if !utf8.Valid(line) {
		return Problem{}, []Issue{{Reason: "not valid UTF-8"}}
	}
	fields, issues := splitObject(line)
	if fields == nil {
		return Problem{}, issues
	}
	p := Problem{Value: 1}
	bad := func(field, reason string) { issues = append(issues, Issue{Field: field, Reason: reason}) }
	for _, k := range keys {
		raw, ok := fields[k]
		if !ok {
			if k == "id" || k == "dataset" || k == "text" {
				bad(k, "required")
			}
			continue
		}
		if reason := decodeField(&p, k, raw); reason != "" {
			bad(k, reason)
		}
	}
	return p, issues
}

// splitObject returns the line's top-level members by key, with an issue
// for each unknown or repeated key; fields is nil when the line is not one
// JSON object.
func splitObject(line []byte) (fields map[string]json.RawMessage, issues []Issue) {
	if err := checkSyntax(line); err != nil {
		return nil, []Issue{{Reason: err.Error()}}
	}
	members, ok := jsonloc.Members(line) // the line is valid JSON
	if !ok {
		return nil, []Issue{{Reason: "must be a JSON object, got " + jsonloc.Kind(bytes.TrimSpace(line))}}
	}
	fields = make(map[string]json.RawMessage, len(members))
	for _, m := range members {
		switch _, dup := fields[m.Key]; {
		case dup:
			issues = append(issues, Issue{Field: m.Key, Reason: "repeated key"})
		case !isKey(m.Key):
			issues = append(issues, Issue{Field: m.Key, Reason: "unknown key"})
		default:
			fields[m.Key] = m.Value
		}
	}
	return fields, issues
}

// checkSyntax reports a line that is not exactly one JSON value.
func checkSyntax(line []byte) error {
	var v json.RawMessage
	err := json.Unmarshal(line, &v)
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Errorf("invalid JSON at byte %d: %s", syn.Offset, strings.TrimPrefix(syn.Error(), "json: "))
	}
	if err != nil {
		return fmt.Errorf("invalid JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

func isKey(k string) bool {
	for _, want := range keys {
		if k == want {
			return true
		}
	}
	return false
}

// decodeField sets p's field k from raw and returns why it is invalid, or "".
func decodeField(p *Problem, k string, raw json.RawMessage) string {
	switch k {
	case "id":
		if problem := decodeString(&p.ID, raw, MaxIDBytes); problem != "" {
			return problem
		}
		return pool.IDProblem(p.ID)
	case "dataset":
		return decodeString(&p.Dataset, raw, MaxDatasetBytes)
	case "text":
		return decodeString(&p.Text, raw, 0)
	case "value":
		return decodeValue(&p.Value, raw)
	case "grading":
		if jsonloc.Kind(raw) != "object" {
			return "must be an object, got " + jsonloc.Kind(raw)
		}
		canon, err := json.Marshal(raw) // compact, HTML-escaped: what json.Marshal of a Problem writes
		if err != nil {
			return "invalid JSON: " + err.Error()
		}
		p.Grading = canon
	case "unsolvable":
		if jsonloc.Kind(raw) != "bool" {
			return "must be true or false, got " + jsonloc.Kind(raw)
		}
		_ = json.Unmarshal(raw, &p.Unsolvable)
	}
	return ""
}

// decodeString decodes a non-blank string of at most maxBytes bytes (0: no
// limit) without NUL characters.
func decodeString(dst *string, raw json.RawMessage, maxBytes int) string {
	if jsonloc.Kind(raw) != "string" {
		return "must be a string, got " + jsonloc.Kind(raw)
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	switch {
	case strings.TrimSpace(s) == "":
		return "must not be empty"
	case maxBytes > 0 && len(s) > maxBytes:
		return fmt.Sprintf("must be at most %d bytes, got %d", maxBytes, len(s))
	case strings.IndexByte(s, 0) >= 0:
		return "must not contain NUL characters"
	}
	*dst = s
	return ""
}

// decodeValue decodes a value in [0, MaxValue]; 0 becomes 1.
func decodeValue(dst *float64, raw json.RawMessage) string {
	if jsonloc.Kind(raw) != "number" {
		return "must be a number, got " + jsonloc.Kind(raw)
	}
	var v float64
	if err := json.Unmarshal(raw, &v); err != nil {
		return fmt.Sprintf("must be a finite number at most %g, got %s", MaxValue, raw)
	}
	switch {
	case v < 0:
		return fmt.Sprintf("must be ≥ 0, got %s", raw)
	case v > MaxValue:
		return fmt.Sprintf("must be at most %g, got %s", MaxValue, raw)
	case v == 0:
		v = 1
	}
	*dst = v
	return ""
}
