package grpcerr

import (
	"errors"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/triage-eval/triage/internal/platform/apperr"
)

func TestPushbackOf(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string // "" for no trailer
	}{
		{"service unavailable", status.Error(codes.Unavailable, "model down"), "-1"},
		{"server going away", ToStatus(&apperr.UnavailableError{Reason: "shutting down", Retry: true}), ""},
		{"rate limit", ToStatus(&apperr.ResourceExhaustedError{Reason: "rate", RetryAfter: 1500 * time.Millisecond}), "1500"},
		{"sub-millisecond delay", ToStatus(&apperr.ResourceExhaustedError{Reason: "rate", RetryAfter: time.Microsecond}), "1"},
		{"too large", status.Error(codes.ResourceExhausted, "grpc: trying to send message larger than max"), "-1"},
		{"invalid argument", status.Error(codes.InvalidArgument, "bad"), ""},
		{"not a status", errors.New("plain"), ""},
		{"ok", nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			md := pushbackOf(tc.err)
			got := ""
			if v := md.Get(RetryPushbackKey); len(v) == 1 {
				got = v[0]
			} else if len(v) > 1 {
				t.Fatalf("%d pushback values: %v", len(v), v)
			}
			if got != tc.want {
				t.Errorf("pushback = %q, want %q", got, tc.want)
			}
		})
	}
}
