// Package grpcerr is the one place where domain errors become gRPC status
// errors: an *apperr.InvalidArgumentError becomes InvalidArgument with an
// errdetails.BadRequest listing every field violation, NotFound carries one
// errdetails.ResourceInfo per missing key, missing or refused credentials
// become Unauthenticated or PermissionDenied, a caller over a limit gets
// ResourceExhausted with an errdetails.RetryInfo saying when to retry,
// context errors keep
// their codes, status errors pass through, and anything else is Internal
// without leaking its text. A request message that cannot be decoded is
// InvalidArgument (Unreadable). Its interceptors apply the mapping to every RPC.
package grpcerr
