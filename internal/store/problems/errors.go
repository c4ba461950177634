package problems

import (
	"fmt"
	"strings"
)

// MaxIssues is how many problems Read collects before it stops reading.
const MaxIssues = 50

// Issue is one problem found in a problem file.
type Issue struct {
	// Line is the 1-based line number.
	Line int
	// Field is the key at fault, or "" when the whole line is.
	Field string
	// Reason says what is wrong, e.g. "must not be empty".
	Reason string
}

// Error lists the issues found in one problem file.
type Error struct {
	// Name is the file name used in messages.
	Name string
	// Issues are in line order.
	Issues []Issue
	// Truncated reports that Read stopped after MaxIssues issues.
	Truncated bool
}

// Error renders one issue per line as "name:line: field: reason".
func (e *Error) Error() string {
	var b strings.Builder
	for i, is := range e.Issues {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s:%d: ", e.Name, is.Line)
		if is.Field != "" {
			b.WriteString(is.Field + ": ")
		}
		b.WriteString(is.Reason)
	}
	if e.Truncated {
		fmt.Fprintf(&b, "\n%s: too many errors; stopped after %d", e.Name, len(e.Issues))
	}
	return b.String()
}
