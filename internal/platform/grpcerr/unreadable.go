package grpcerr

import (
	"github.com/triage-eval/triage/internal/platform/apperr"
)

// RequestField names the request message as a whole in the BadRequest of
// an unreadable request: the decoder's error names no field of it.
const RequestField = "request"

// Unreadable is the status of a request message that could not be decoded
// (err is the codec's error): bytes that are not the message's wire format,
// or a string field that is not valid UTF-8. That is the caller's fault, so
// it is InvalidArgument, not the Internal grpc would answer, with a
// BadRequest as for any other invalid request.
func Unreadable(err error) error {
	return ToStatus(apperr.Invalid(RequestField, "could not be decoded: %v", err))
}
