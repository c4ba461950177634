package grpcerr

import (
	"context"
	"errors"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"

	"github.com/triage-eval/triage/internal/platform/apperr"
)

// ToStatus converts err into a gRPC status error. nil stays nil.
func ToStatus(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	var (
		invalid      *apperr.InvalidArgumentError
		notFound     *apperr.NotFoundError
		precondition *apperr.PreconditionError
		unavailable  *apperr.UnavailableError
	)
	switch {
	case errors.As(err, &invalid):
		return invalidArgument(invalid)
	case errors.As(err, &notFound):
		return notFoundStatus(notFound)
	case errors.As(err, &precondition):
		return status.Error(codes.FailedPrecondition, precondition.Reason)
	case errors.As(err, &unavailable):
		return status.Error(codes.Unavailable, unavailable.Reason)
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, err.Error())
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, err.Error())
	default:
		return status.Error(codes.Internal, "internal error")
	}
}

func invalidArgument(e *apperr.InvalidArgumentError) error {
	br := &errdetails.BadRequest{}
	for _, v := range e.Violations {
		br.FieldViolations = append(br.FieldViolations, &errdetails.BadRequest_FieldViolation{
			Field:       v.Field,
			Description: v.Description,
		})
	}
	st, err := status.New(codes.InvalidArgument, e.Error()).WithDetails(br)
	if err != nil {
		return status.Error(codes.InvalidArgument, e.Error())
	}
	return st.Err()
}

func notFoundStatus(e *apperr.NotFoundError) error {
	details := make([]protoadapt.MessageV1, 0, len(e.Keys))
	for _, k := range e.Keys {
		details = append(details, &errdetails.ResourceInfo{ResourceType: e.Kind, ResourceName: k})
	}
	st, err := status.New(codes.NotFound, e.Error()).WithDetails(details...)
	if err != nil {
		return status.Error(codes.NotFound, e.Error())
	}
	return st.Err()
}

// FieldViolations returns the BadRequest field violations carried by a
// status error, or nil if it carries none.
func FieldViolations(err error) []*errdetails.BadRequest_FieldViolation {
	st, ok := status.FromError(err)
	if !ok {
		return nil
	}
	var out []*errdetails.BadRequest_FieldViolation
	for _, d := range st.Details() {
		if br, ok := d.(*errdetails.BadRequest); ok {
			out = append(out, br.GetFieldViolations()...)
		}
	}
	return out
}
