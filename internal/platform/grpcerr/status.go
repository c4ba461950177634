package grpcerr

import (
	"context"
	"errors"
	"fmt"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/triage-eval/triage/internal/platform/apperr"
)

// ToStatus converts err into a gRPC status error. nil stays nil.
func ToStatus(err error) error {
	if err == nil {
		return nil
	}
	var caused *causedStatus
	if errors.As(err, &caused) {
		// Never a wrapper of one: status.FromError of a wrapper takes its
		// text, cause included, as the message grpc sends.
		return caused
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	var (
		invalid      *apperr.InvalidArgumentError
		notFound     *apperr.NotFoundError
		precondition *apperr.PreconditionError
		unavailable  *apperr.UnavailableError
		unauthentic  *apperr.UnauthenticatedError
		denied       *apperr.PermissionDeniedError
		exhausted    *apperr.ResourceExhaustedError
	)
	switch {
	case errors.As(err, &invalid):
		return invalidArgument(invalid)
	case errors.As(err, &notFound):
		return notFoundStatus(notFound)
	case errors.As(err, &precondition):
		return status.Error(codes.FailedPrecondition, precondition.Reason)
	case errors.As(err, &unavailable):
		return unavailableStatus(unavailable)
	case errors.As(err, &unauthentic):
		return status.Error(codes.Unauthenticated, unauthentic.Reason)
	case errors.As(err, &denied):
		return status.Error(codes.PermissionDenied, denied.Reason)
	case errors.As(err, &exhausted):
		return resourceExhausted(exhausted)
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, err.Error())
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, err.Error())
	default:
		return withCause(status.New(codes.Internal, "internal error"), err)
	}
}

// causedStatus is a status error that keeps the error behind it: the caller
// gets the status alone (grpc sends GRPCStatus), while Error, which the
// server's log line records, adds the cause, so that an operator can see
// why a call failed without the caller seeing it (a path, a store's
// address).
type causedStatus struct {
	st    *status.Status
	cause error
}

// withCause returns st as an error that logs cause; st's own error when
// cause is nil.
func withCause(st *status.Status, cause error) error {
	if cause == nil {
		return st.Err()
	}
	return &causedStatus{st: st, cause: cause}
}

// Error is the status, then the cause, marked as not sent.
func (e *causedStatus) Error() string {
	return fmt.Sprintf("rpc error: code = %s desc = %s (cause, not sent to the caller: %v)", e.st.Code(), e.st.Message(), e.cause)
}

// GRPCStatus is the status the caller gets.
func (e *causedStatus) GRPCStatus() *status.Status { return e.st }

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

// resourceExhausted carries when to retry as an errdetails.RetryInfo.
func unavailableStatus(e *apperr.UnavailableError) error {
	st := status.New(codes.Unavailable, e.Reason)
	if e.Retry {
		if withRetry, err := st.WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(0)}); err == nil {
			st = withRetry
		}
	}
	return withCause(st, e.Cause)
}

func resourceExhausted(e *apperr.ResourceExhaustedError) error {
	st, err := status.New(codes.ResourceExhausted, e.Reason).WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(e.RetryAfter)})
	if err != nil {
		return status.Error(codes.ResourceExhausted, e.Reason)
	}
	return st.Err()
}

// RetryDelay returns the errdetails.RetryInfo delay carried by a status
// error, and whether it carries one.
func RetryDelay(err error) (time.Duration, bool) {
	st, ok := status.FromError(err)
	if !ok {
		return 0, false
	}
	for _, d := range st.Details() {
		if ri, ok := d.(*errdetails.RetryInfo); ok {
			return ri.GetRetryDelay().AsDuration(), true
		}
	}
	return 0, false
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
