package apperr

import (
	"strings"
	"time"
)

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
	// Retry says that the call may be sent again at once — to another
	// replica, or to this one once it is back: the server is going away,
	// not its dependency (whose outage the server's own retries met
	// already). On the wire it is an errdetails.RetryInfo of 0.
	Retry bool
	// Cause, when set, is the failure behind Reason (a store's driver
	// error, say), for the server's log line: it is never sent.
	Cause error
}

// Error returns the reason.
func (e *UnavailableError) Error() string { return e.Reason }

// UnauthenticatedError reports a call without valid credentials: no token,
// or one the server does not know. Reason must never quote the credential.
type UnauthenticatedError struct {
	// Reason says what is missing or wrong.
	Reason string
}

// Error returns the reason.
func (e *UnauthenticatedError) Error() string { return e.Reason }

// PermissionDeniedError reports an authenticated caller asking for what it
// is not granted, e.g. a service its token does not name.
type PermissionDeniedError struct {
	// Reason says what was refused.
	Reason string
}

// Error returns the reason.
func (e *PermissionDeniedError) Error() string { return e.Reason }

// ResourceExhaustedError reports a call refused because its caller is over a
// limit (calls per second, calls at once); it may succeed after RetryAfter.
type ResourceExhaustedError struct {
	// Reason says which limit was hit.
	Reason string
	// RetryAfter is when trying again should succeed, at the earliest.
	RetryAfter time.Duration
}

// Error returns the reason.
func (e *ResourceExhaustedError) Error() string { return e.Reason }
