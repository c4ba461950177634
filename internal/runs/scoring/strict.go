package scoring

import (
	"unicode/utf8"

	"github.com/triage-eval/triage/internal/platform/jsonloc"
)

// strictProblems finds what encoding/json lets through but the services
// refuse over HTTP/JSON (protojson does): bytes that are not UTF-8, which
// encoding/json replaces with U+FFFD (two distinct ids could become one),
// a key repeated in one object, of which it keeps the last silently, and
// null as an element of a list (an item or a step), which it reads as an
// element of empty fields.
// data has decoded without error, so it is JSON nested at most 10,000
// levels deep (encoding/json's bound), which bounds the walk's stack; at
// most jsonloc.MaxOddities problems of the last two kinds are found.
func strictProblems(data []byte) []Problem {
	if !utf8.Valid(data) {
		off := 0
		for {
			r, n := utf8.DecodeRune(data[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		return []Problem{{Line: jsonloc.LineAt(data, int64(off)), Reason: "invalid UTF-8: the document must be UTF-8 text"}}
	}
	var problems []Problem
	for _, o := range jsonloc.Oddities(data) {
		reason := "duplicate key"
		if o.Kind == jsonloc.NullElement {
			reason = "null is not allowed in a list: write an object"
		}
		problems = append(problems, Problem{Line: o.Line, Field: o.Field, Reason: reason})
	}
	return problems
}
