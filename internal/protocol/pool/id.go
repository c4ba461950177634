package pool

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// MaxIDBytes is the longest problem id, wherever one is read: pools and
// plans in requests, ground-truth records, problem files.
const MaxIDBytes = 256

// IDProblem says why id cannot be a problem id, or returns "" when it can.
// A problem id is 1 to MaxIDBytes bytes of valid UTF-8 without control
// characters (Unicode Cc: NUL, which PostgreSQL cannot store; line breaks
// and escapes, which a terminal, a log line or a prompt would act on
// rather than show). This is the one place the rule is decided.
func IDProblem(id string) string {
	switch {
	case id == "":
		return "must not be empty"
	case len(id) > MaxIDBytes:
		return fmt.Sprintf("must be at most %d bytes, got %d", MaxIDBytes, len(id))
	case !utf8.ValidString(id):
		return "must be valid UTF-8"
	}
	for i, r := range id {
		if unicode.IsControl(r) {
			return fmt.Sprintf("must not contain control characters, got %U at byte %d", r, i)
		}
	}
	return ""
}
