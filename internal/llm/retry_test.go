package llm

import (
	"context"
	"errors"
	"net"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/llm/llmtest"
)

// TestRetries scripts the server's replies and checks how many requests
// it saw, what the client waited between them and how the call ended.
// Jitter is fixed at 0.5, so the n-th backoff is 0.5·2^(n−1) s.
func TestRetries(t *testing.T) {
	retryDate := testNow.Add(30 * time.Second).Format(http.TimeFormat)
	tests := []struct {
		name        string
		script      []llmtest.Reply
		maxAttempts int
		timeout     time.Duration
		wantCalls   int
		wantSleeps  []time.Duration
		// wantErr checks the error; nil means success is expected.
		wantErr func(t *testing.T, err error)
	}{{
		name:       "429_retry_after_seconds",
		script:     []llmtest.Reply{llmtest.RateLimited("7"), llmtest.OK("4")},
		wantCalls:  2,
		wantSleeps: []time.Duration{7 * time.Second},
	}, {
		name:       "429_retry_after_http_date",
		script:     []llmtest.Reply{llmtest.RateLimited(retryDate), llmtest.OK("4")},
		wantCalls:  2,
		wantSleeps: []time.Duration{30 * time.Second},
	}, {
		name:       "429_retry_after_capped",
		script:     []llmtest.Reply{llmtest.RateLimited("86400"), llmtest.OK("4")},
		wantCalls:  2,
		wantSleeps: []time.Duration{MaxRetryAfter},
	}, {
		name:       "429_without_retry_after_backs_off",
		script:     []llmtest.Reply{llmtest.RateLimited(""), llmtest.OK("4")},
		wantCalls:  2,
		wantSleeps: []time.Duration{500 * time.Millisecond},
	}, {
		name:       "500_then_success",
		script:     []llmtest.Reply{llmtest.ServerError(), llmtest.OK("4")},
		wantCalls:  2,
		wantSleeps: []time.Duration{500 * time.Millisecond},
	}, {
		name:       "502_503_then_success_backoff_doubles",
		script:     []llmtest.Reply{llmtest.Raw(502, "<html>Bad Gateway</html>"), llmtest.Raw(503, ""), llmtest.OK("4")},
		wantCalls:  3,
		wantSleeps: []time.Duration{500 * time.Millisecond, time.Second},
	}, {
		name:       "hung_connection_times_out_then_retried",
		script:     []llmtest.Reply{llmtest.Hang(), llmtest.OK("4")},
		timeout:    150 * time.Millisecond,
		wantCalls:  2,
		wantSleeps: []time.Duration{500 * time.Millisecond},
	}, {
		name:       "malformed_json_retried",
		script:     []llmtest.Reply{llmtest.Malformed(), llmtest.OK("4")},
		wantCalls:  2,
		wantSleeps: []time.Duration{500 * time.Millisecond},
	}, {
		name:       "no_choices_retried",
		script:     []llmtest.Reply{llmtest.Raw(200, `{"id":"x","choices":[]}`), llmtest.OK("4")},
		wantCalls:  2,
		wantSleeps: []time.Duration{500 * time.Millisecond},
	}, {
		name: "malformed_json_exhausts",
		script: []llmtest.Reply{llmtest.Malformed(), llmtest.Malformed(),
			llmtest.Raw(200, `<html>upstream error</html>`)},
		maxAttempts: 3,
		wantCalls:   3,
		wantSleeps:  []time.Duration{500 * time.Millisecond, time.Second},
		wantErr: func(t *testing.T, err error) {
			ex := asExhausted(t, err, 3)
			var mal *MalformedResponseError
			if !errors.As(ex.Last, &mal) || !strings.Contains(mal.Body, "upstream error") {
				t.Errorf("last cause = %v, want the malformed body", ex.Last)
			}
		},
	}, {
		name:      "400_not_retried",
		script:    []llmtest.Reply{llmtest.BadRequest("max_tokens is too large: 999999")},
		wantCalls: 1,
		wantErr: func(t *testing.T, err error) {
			var se *StatusError
			if !errors.As(err, &se) || se.StatusCode != 400 || se.Message != "max_tokens is too large: 999999" ||
				se.Type != "invalid_request_error" {
				t.Errorf("error = %#v, want *StatusError 400 with the provider's message", err)
			}
			var ex *ExhaustedError
			if errors.As(err, &ex) {
				t.Error("a 400 must not be reported as exhausted retries")
			}
		},
	}, {
		name:      "404_string_error_not_retried",
		script:    []llmtest.Reply{llmtest.Raw(404, `{"error":"model \"nope\" not found, try pulling it first"}`)},
		wantCalls: 1,
		wantErr: func(t *testing.T, err error) {
			var se *StatusError
			if !errors.As(err, &se) || se.StatusCode != 404 || !strings.Contains(se.Message, "try pulling it first") {
				t.Errorf("error = %v, want *StatusError 404 with Ollama's message", err)
			}
		},
	}, {
		name:        "attempts_bounded",
		script:      []llmtest.Reply{llmtest.ServerError(), llmtest.ServerError(), llmtest.ServerError(), llmtest.OK("late")},
		maxAttempts: 3,
		wantCalls:   3,
		wantSleeps:  []time.Duration{500 * time.Millisecond, time.Second},
		wantErr: func(t *testing.T, err error) {
			ex := asExhausted(t, err, 3)
			var se *StatusError
			if !errors.As(ex.Last, &se) || se.StatusCode != 500 {
				t.Errorf("last cause = %v, want HTTP 500", ex.Last)
			}
			if !strings.Contains(err.Error(), "gave up after 3 attempts") || !strings.Contains(err.Error(), "HTTP 500") {
				t.Errorf("message %q lacks the count or the cause", err)
			}
		},
	}, {
		name:        "hung_every_time_exhausts_with_timeout",
		script:      []llmtest.Reply{llmtest.Hang(), llmtest.Hang()},
		maxAttempts: 2,
		timeout:     100 * time.Millisecond,
		wantCalls:   2,
		wantSleeps:  []time.Duration{500 * time.Millisecond},
		wantErr: func(t *testing.T, err error) {
			ex := asExhausted(t, err, 2)
			var te *TimeoutError
			if !errors.As(ex.Last, &te) || te.After != 100*time.Millisecond {
				t.Errorf("last cause = %v, want *TimeoutError after 100ms", ex.Last)
			}
		},
	}, {
		name:        "default_max_attempts_is_5",
		script:      []llmtest.Reply{llmtest.ServerError(), llmtest.ServerError(), llmtest.ServerError(), llmtest.ServerError(), llmtest.ServerError(), llmtest.OK("late")},
		wantCalls:   5,
		wantSleeps:  []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second},
		wantErr:     func(t *testing.T, err error) { asExhausted(t, err, 5) },
		maxAttempts: 0,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, llmtest.WithScript(tc.script...))
			ep := testEndpoint(srv)
			ep.MaxAttempts = tc.maxAttempts
			if tc.timeout > 0 {
				ep.Timeout = tc.timeout
			}
			var s sleeps
			c := newTestClient(t, ep, &s)
			r, err := c.Complete(context.Background(), userRequest("What is 2+2?"))
			if tc.wantErr == nil {
				if err != nil {
					t.Fatalf("Complete: %v", err)
				}
				if r.Attempts != tc.wantCalls || r.Content != "4" {
					t.Errorf("Attempts = %d, Content = %q; want %d, \"4\"", r.Attempts, r.Content, tc.wantCalls)
				}
			} else {
				if err == nil {
					t.Fatalf("Complete succeeded with %+v, want an error", r)
				}
				var ee *EndpointError
				if !errors.As(err, &ee) || ee.Endpoint != "test" {
					t.Errorf("error %v does not name the endpoint", err)
				}
				tc.wantErr(t, err)
			}
			if got := srv.Count(); got != tc.wantCalls {
				t.Errorf("server saw %d requests, want %d", got, tc.wantCalls)
			}
			if got := s.got(); !reflect.DeepEqual(got, tc.wantSleeps) && !(len(got) == 0 && len(tc.wantSleeps) == 0) {
				t.Errorf("sleeps = %v, want %v", got, tc.wantSleeps)
			}
		})
	}
}

func asExhausted(t *testing.T, err error, attempts int) *ExhaustedError {
	t.Helper()
	var ex *ExhaustedError
	if !errors.As(err, &ex) {
		t.Fatalf("error = %v, want *ExhaustedError", err)
	}
	if ex.Attempts != attempts {
		t.Errorf("Attempts = %d, want %d", ex.Attempts, attempts)
	}
	return ex
}

func TestConnectionErrorRetried(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there any more: connection refused
	ep := Endpoint{Name: "test", BaseURL: "http://" + addr + "/v1", Model: "m", Mode: ModeStandard, MaxAttempts: 2}
	var s sleeps
	c := newTestClient(t, ep, &s)
	_, err = c.Complete(context.Background(), userRequest("hi"))
	ex := asExhausted(t, err, 2)
	var ce *ConnectionError
	if !errors.As(ex.Last, &ce) {
		t.Errorf("last cause = %v, want *ConnectionError", ex.Last)
	}
	if len(s.got()) != 1 {
		t.Errorf("sleeps = %v, want one", s.got())
	}
}

// TestCancelStopsBackoff uses the real sleep: a Retry-After of a minute
// must end as soon as the caller's context does — the error says the wait
// was cut short (a wait that ran its course would end in another error).
func TestCancelStopsBackoff(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithScript(llmtest.RateLimited("60"), llmtest.OK("4")))
	var s sleeps
	c := newTestClient(t, testEndpoint(srv), &s, WithSleep(sleepContext))
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := c.Complete(ctx, userRequest("hi"))
	var rw *retryWaitError
	if !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &rw) || rw.wait != time.Minute {
		t.Fatalf("error = %v, want the context's deadline during the minute's wait", err)
	}
	if srv.Count() != 1 {
		t.Errorf("server saw %d requests, want 1", srv.Count())
	}
}

// TestCancelStopsAttempt: a caller's cancellation during a hung request
// is not a timeout and is not retried.
func TestCancelStopsAttempt(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithScript(llmtest.Hang(), llmtest.OK("4")))
	var s sleeps
	c := newTestClient(t, testEndpoint(srv), &s)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := c.Complete(ctx, userRequest("hi"))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
	var te *TimeoutError
	if errors.As(err, &te) {
		t.Error("a cancellation was reported as a timeout")
	}
	if srv.Count() != 1 || len(s.got()) != 0 {
		t.Errorf("server saw %d requests and client slept %v; want 1 and none", srv.Count(), s.got())
	}
}

func TestBackoffDelay(t *testing.T) {
	b := backoff{base: time.Second, max: time.Minute, rand: func() float64 { return 0.999 }}
	tests := []struct {
		retry int
		want  time.Duration
	}{
		{1, 999 * time.Millisecond},
		{2, 1998 * time.Millisecond},
		{6, 31968 * time.Millisecond},
		{7, 59940 * time.Millisecond}, // window capped at 1 min
		{100, 59940 * time.Millisecond},
	}
	for _, tc := range tests {
		if got := b.delay(tc.retry); got != tc.want {
			t.Errorf("delay(%d) = %s, want %s", tc.retry, got, tc.want)
		}
	}
	b.rand = func() float64 { return 0 }
	if got := b.delay(3); got != 0 {
		t.Errorf("full jitter must reach 0, got %s", got)
	}
}

func TestParseRetryAfter(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, false},
		{"0", 0, true},
		{"12", 12 * time.Second, true},
		{" 3 ", 3 * time.Second, true},
		{"1.5", 1500 * time.Millisecond, true},
		{"-1", 0, false},
		{"soon", 0, false},
		{"99999999", MaxRetryAfter, true},
		{testNow.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{testNow.Add(-time.Hour).Format(http.TimeFormat), 0, true},
		{testNow.Add(time.Hour).Format(http.TimeFormat), MaxRetryAfter, true},
		{testNow.Add(10 * time.Second).Format(time.RFC850), 10 * time.Second, true},
	}
	for _, tc := range tests {
		got, ok := parseRetryAfter(tc.in, testNow)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseRetryAfter(%q) = %s, %v; want %s, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
