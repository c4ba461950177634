package groundtruth

import (
	"strings"
	"unicode/utf8"

	"github.com/triage-eval/triage/internal/platform/apperr"
)

// pgStorable reports whether every s can be a PostgreSQL text value: valid
// UTF-8 without NUL bytes. A string that cannot be stored cannot match a
// stored row, so reads treat it as absent rather than sending it (which
// the server would reject).
func pgStorable(ss ...string) bool {
	for _, s := range ss {
		if !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 {
			return false
		}
	}
	return true
}

// pgCheckText rejects a record PostgreSQL cannot store as text, naming the
// field, instead of letting the server fail the COPY with a bare encoding
// error. (SQLite stores such strings as they are.)
func pgCheckText(r Record) error {
	var v apperr.Violations
	for _, f := range []struct{ name, value string }{
		{"solver.model", r.Solver.Model}, {"solver.mode", r.Solver.Mode},
		{"dataset", r.Dataset}, {"problem_id", r.ProblemID},
		{"finish_reason", r.FinishReason}, {"response_sha256", r.ResponseSHA256}, {"error", r.Error}, {"source", r.Source},
		{"problem_sha256", r.ProblemSHA256},
	} {
		if !pgStorable(f.value) {
			v.Add(f.name, "must be valid UTF-8 without NUL bytes")
		}
	}
	return v.Err()
}
