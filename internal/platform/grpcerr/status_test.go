package grpcerr

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/triage-eval/triage/internal/platform/apperr"
)

func TestNotFoundCarriesKeys(t *testing.T) {
	err := ToStatus(&apperr.NotFoundError{Kind: "problem", Keys: []string{"aime/p3", "aime/p9"}})
	var names []string
	for _, d := range status.Convert(err).Details() {
		if ri, ok := d.(*errdetails.ResourceInfo); ok && ri.GetResourceType() == "problem" {
			names = append(names, ri.GetResourceName())
		}
	}
	if fmt.Sprint(names) != "[aime/p3 aime/p9]" {
		t.Errorf("resource details = %v", names)
	}
}

// TestCauseIsNeverSent: a status that keeps its cause for the log, wrapped
// on its way (fmt.Errorf), is unwrapped by ToStatus and WithDetail, so
// that the message grpc sends is the status's alone; status.FromError of
// the wrapper would have sent the cause.
func TestCauseIsNeverSent(t *testing.T) {
	caused := ToStatus(&apperr.UnavailableError{Reason: "store down", Cause: errors.New("dial tcp 10.0.0.7:5432: refused")})
	wrapped := fmt.Errorf("handler: %w", caused)
	for name, got := range map[string]error{
		"ToStatus":             ToStatus(wrapped),
		"WithDetail, nil":      WithDetail(wrapped, nil),
		"WithDetail, a detail": WithDetail(wrapped, &errdetails.RetryInfo{}),
		"WithDetail, twice":    WithDetail(fmt.Errorf("again: %w", WithDetail(wrapped, &errdetails.RetryInfo{})), &errdetails.RetryInfo{}),
	} {
		st, _ := status.FromError(got)
		if st.Code() != codes.Unavailable || st.Message() != "store down" {
			t.Errorf("%s: the status sent is %v %q, want Unavailable \"store down\"", name, st.Code(), st.Message())
		}
	}
}

func TestToStatus(t *testing.T) {
	var two apperr.Violations
	two.Add("items[0].cost", "must be > 0")
	two.Add("budgets[1].alpha", "must be in (0, 1]")

	tests := []struct {
		name       string
		err        error
		wantCode   codes.Code
		wantFields []string
		wantMsg    string
	}{
		{name: "nil", err: nil, wantCode: codes.OK},
		{name: "invalid", err: two.Err(), wantCode: codes.InvalidArgument, wantFields: []string{"items[0].cost", "budgets[1].alpha"}},
		{name: "wrapped invalid", err: fmt.Errorf("oracle: %w", apperr.Invalid("random.samples", "too many")), wantCode: codes.InvalidArgument, wantFields: []string{"random.samples"}},
		{name: "not found", err: &apperr.NotFoundError{Kind: "problem", Keys: []string{"aime/p3"}}, wantCode: codes.NotFound, wantMsg: "problem not found: aime/p3"},
		{name: "precondition", err: fmt.Errorf("x: %w", &apperr.PreconditionError{Reason: "no store"}), wantCode: codes.FailedPrecondition, wantMsg: "no store"},
		{name: "unavailable", err: fmt.Errorf("plan: %w", &apperr.UnavailableError{Reason: "model down"}), wantCode: codes.Unavailable, wantMsg: "model down"},
		{name: "unavailable with a cause not sent", err: &apperr.UnavailableError{Reason: "store down", Cause: errors.New("dial tcp 10.0.0.7:5432: refused")}, wantCode: codes.Unavailable, wantMsg: "store down"},
		{name: "unauthenticated", err: &apperr.UnauthenticatedError{Reason: "no token"}, wantCode: codes.Unauthenticated, wantMsg: "no token"},
		{name: "permission denied", err: fmt.Errorf("auth: %w", &apperr.PermissionDeniedError{Reason: "not granted"}), wantCode: codes.PermissionDenied, wantMsg: "not granted"},
		{name: "resource exhausted", err: &apperr.ResourceExhaustedError{Reason: "slow down", RetryAfter: time.Second}, wantCode: codes.ResourceExhausted, wantMsg: "slow down"},
		{name: "canceled", err: fmt.Errorf("work: %w", context.Canceled), wantCode: codes.Canceled},
		{name: "deadline", err: context.DeadlineExceeded, wantCode: codes.DeadlineExceeded},
		{name: "status passes", err: status.Error(codes.NotFound, "x"), wantCode: codes.NotFound, wantMsg: "x"},
		{name: "other hidden", err: errors.New("disk on fire at /secret/path"), wantCode: codes.Internal, wantMsg: "internal error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ToStatus(tt.err)
			if tt.wantCode == codes.Internal && !strings.Contains(got.Error(), "disk on fire") {
				t.Errorf("Error() = %q: the server's log would not say why the call failed", got.Error())
			}
			if code := status.Code(got); code != tt.wantCode {
				t.Fatalf("code = %v, want %v", code, tt.wantCode)
			}
			if tt.wantMsg != "" && status.Convert(got).Message() != tt.wantMsg {
				t.Errorf("message = %q, want %q", status.Convert(got).Message(), tt.wantMsg)
			}
			fvs := FieldViolations(got)
			if len(fvs) != len(tt.wantFields) {
				t.Fatalf("field violations = %v, want fields %v", fvs, tt.wantFields)
			}
			for i, f := range tt.wantFields {
				if fvs[i].GetField() != f || fvs[i].GetDescription() == "" {
					t.Errorf("violation %d = %v, want field %q with a description", i, fvs[i], f)
				}
			}
		})
	}
}

// TestUnavailableCarriesRetryInfoOnlyWhenRetryable: a server going away
// (UnavailableError.Retry) says so with a RetryInfo, which a dependency's
// outage does not carry.
func TestUnavailableCarriesRetryInfoOnlyWhenRetryable(t *testing.T) {
	if _, ok := RetryDelay(ToStatus(&apperr.UnavailableError{Reason: "model down"})); ok {
		t.Error("a dependency's outage carries a RetryInfo")
	}
	err := ToStatus(fmt.Errorf("baseline: %w", &apperr.UnavailableError{Reason: "shutting down", Retry: true}))
	if d, ok := RetryDelay(err); !ok || d != 0 || status.Code(err) != codes.Unavailable || status.Convert(err).Message() != "shutting down" {
		t.Errorf("ToStatus = %v (retry info %v, %v); want Unavailable, its reason, and a RetryInfo of 0", err, d, ok)
	}
}

func TestResourceExhaustedCarriesRetryInfo(t *testing.T) {
	err := ToStatus(fmt.Errorf("limits: %w", &apperr.ResourceExhaustedError{Reason: "over the rate", RetryAfter: 1500 * time.Millisecond}))
	if d, ok := RetryDelay(err); !ok || d != 1500*time.Millisecond {
		t.Errorf("RetryDelay = %v, %v; want 1.5s", d, ok)
	}
	if _, ok := RetryDelay(status.Error(codes.ResourceExhausted, "x")); ok {
		t.Error("a status without RetryInfo reported a delay")
	}
}
