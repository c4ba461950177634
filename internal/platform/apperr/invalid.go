package apperr

import (
	"fmt"
	"strings"
)

// FieldViolation says what is wrong with one field of a request.
type FieldViolation struct {
	// Field is the path of the field, e.g. "items[3].cost".
	Field string
	// Description says why the value is rejected.
	Description string
}

// InvalidArgumentError reports every invalid field of a request at once.
type InvalidArgumentError struct {
	// Violations lists the invalid fields in the order they were found.
	Violations []FieldViolation
}

// Error joins the violations as "field: description; ...".
func (e *InvalidArgumentError) Error() string {
	parts := make([]string, len(e.Violations))
	for i, v := range e.Violations {
		parts[i] = v.Field + ": " + v.Description
	}
	return "invalid argument: " + strings.Join(parts, "; ")
}

// Violations collects field violations while a request is checked. The zero
// value is ready to use.
type Violations struct {
	list []FieldViolation
	// limit caps how many violations are kept, so a huge bad request cannot
	// produce a huge error; zero means DefaultViolationLimit.
	limit int
}

// DefaultViolationLimit is how many violations one error keeps; the rest are
// counted in a final summary violation.
const DefaultViolationLimit = 100

// Add records that field is invalid for the reason given by format and args.
func (v *Violations) Add(field, format string, args ...any) {
	limit := v.limit
	if limit == 0 {
		limit = DefaultViolationLimit
	}
	if len(v.list) < limit {
		v.list = append(v.list, FieldViolation{Field: field, Description: fmt.Sprintf(format, args...)})
		return
	}
	if len(v.list) == limit {
		v.list = append(v.list, FieldViolation{Field: "request", Description: "more violations omitted"})
	}
}

// Len reports how many violations were recorded.
func (v *Violations) Len() int { return len(v.list) }

// Err returns an *InvalidArgumentError holding the violations, or nil if
// there are none.
func (v *Violations) Err() error {
	if len(v.list) == 0 {
		return nil
	}
	return &InvalidArgumentError{Violations: v.list}
}

// Invalid returns an *InvalidArgumentError for a single field.
func Invalid(field, format string, args ...any) error {
	var v Violations
	v.Add(field, format, args...)
	return v.Err()
}
