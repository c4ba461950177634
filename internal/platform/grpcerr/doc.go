// Package grpcerr is the one place where domain errors become gRPC status
// errors: an *apperr.InvalidArgumentError becomes InvalidArgument with an
// errdetails.BadRequest listing every field violation, NotFound carries one
// errdetails.ResourceInfo per missing key, context errors keep
// their codes, status errors pass through, and anything else is Internal
// without leaking its text. Its interceptors apply the mapping to every RPC.
package grpcerr
