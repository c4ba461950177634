package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/llm/llmtest"
)

const secret = "INTERNAL-SECRET-TOKEN-XYZ db password=hunter2"

func TestReason(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"status with body", newStatusError(400, []byte(secret)), "HTTP 400 Bad Request"},
		{"status with code", newStatusError(400, []byte(`{"error":{"message":"`+secret+`","type":"invalid_request_error","code":"context_length_exceeded"}}`)), "HTTP 400 Bad Request (context_length_exceeded)"},
		{"status with type only", newStatusError(401, []byte(`{"error":{"message":"`+secret+`","type":"invalid_request_error"}}`)), "HTTP 401 Unauthorized (invalid_request_error)"},
		{"status with a code that is text", newStatusError(403, []byte(`{"error":{"message":"x","code":"`+secret+`"}}`)), "HTTP 403 Forbidden"},
		{"timeout", &TimeoutError{After: 5 * time.Second, Err: errors.New("dial tcp 10.0.0.9:8000: " + secret)}, "no complete response within 5s"},
		{"whole call", &TimeoutError{After: time.Minute, Whole: true}, "no complete response within the call's 1m0s"},
		{"whole call after a failure", &TimeoutError{After: time.Minute, Whole: true, Last: newStatusError(500, []byte(secret))}, "no complete response within the call's 1m0s; last error: HTTP 500 Internal Server Error"},
		{"connection", &ConnectionError{Err: errors.New("dial tcp 10.0.0.9:5432: connect: connection refused")}, "connection failed"},
		{"malformed", &MalformedResponseError{Reason: "bad", Body: secret}, "malformed response"},
		{"exhausted", &EndpointError{Endpoint: "inline", Err: &ExhaustedError{Attempts: 5, Last: newStatusError(503, []byte(secret))}}, "gave up after 5 attempts; last error: HTTP 503 Service Unavailable"},
		{"canceled", fmt.Errorf("waiting (%s): %w", secret, context.Canceled), "the call ended before a response"},
		{"other", errors.New(secret), "request failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Reason(tt.err); got != tt.want {
				t.Errorf("Reason = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestTotalTimeout: a provider that never answers holds a call with
// TotalTimeout for that long, not MaxAttempts × Timeout: the error is the
// whole call's, and fewer than MaxAttempts attempts were made.
func TestTotalTimeout(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithHandler(func(int, llmtest.Recorded) llmtest.Reply { return llmtest.Hang() }))
	ep := testEndpoint(srv)
	ep.Timeout, ep.TotalTimeout, ep.MaxAttempts = 300*time.Millisecond, 300*time.Millisecond, 5
	var s sleeps
	c := newTestClient(t, ep, &s, WithSleep(sleepContext))
	_, err := c.Complete(context.Background(), userRequest("hi"))
	var te *TimeoutError
	if !errors.As(err, &te) || !te.Whole || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the whole call's TimeoutError", err)
	}
	if n := srv.Count(); n >= ep.MaxAttempts {
		t.Errorf("the provider saw %d attempts, want fewer than %d", n, ep.MaxAttempts)
	}
	if !strings.Contains(Reason(err), "call's 300ms") {
		t.Errorf("Reason = %q", Reason(err))
	}

	// The caller's own deadline, shorter, is reported as the caller's.
	ep.TotalTimeout = 10 * time.Second
	c = newTestClient(t, ep, &s, WithSleep(sleepContext))
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := c.Complete(ctx, userRequest("hi")); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the caller's deadline", err)
	}
}
