package apperr

import "strings"

// NotFoundError reports records that do not exist.
type NotFoundError struct {
	// Kind names what is missing, e.g. "solver" or "problem".
	Kind string
	// Keys lists the missing keys.
	Keys []string
}

// Error lists the missing keys.
func (e *NotFoundError) Error() string {
	return e.Kind + " not found: " + strings.Join(e.Keys, ", ")
}

// PreconditionError reports a request the system cannot serve in its
// current configuration or state, whatever the arguments.
type PreconditionError struct {
	// Reason says what is missing.
	Reason string
}

// Error returns the reason.
func (e *PreconditionError) Error() string { return e.Reason }

// UnavailableError reports a dependency that failed for now, such as a
// model endpoint that kept failing after every retry; trying later may work.
type UnavailableError struct {
	// Reason says what failed.
	Reason string
}

// Error returns the reason.
func (e *UnavailableError) Error() string { return e.Reason }
