package grpcerr

import (
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Unreadable is the status of a request message that could not be decoded
// (err is the codec's error): bytes that are not the message's wire format,
// or a string field that is not valid UTF-8. That is the caller's fault, so
// it is InvalidArgument, not the Internal grpc would answer.
func Unreadable(err error) error {
	return status.Error(codes.InvalidArgument, "the request message could not be decoded: "+err.Error())
}
