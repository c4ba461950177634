package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/triage-eval/triage/internal/platform/apperr"
)

// StatusError is an HTTP error response of the provider.
type StatusError struct {
	// StatusCode is the HTTP status, e.g. 400 or 429.
	StatusCode int
	// Message is the provider's error message ("error.message" or a
	// string "error" or "detail" field, else the start of the body).
	Message string
	// Type and Code are the provider's error type and code, when given.
	Type, Code string
	// RetryAfter is the wait the Retry-After header asked for, already
	// capped; meaningful only when HasRetryAfter.
	RetryAfter time.Duration
	// HasRetryAfter says whether the response carried a valid Retry-After.
	HasRetryAfter bool
}

// Error returns the status and the provider's message.
func (e *StatusError) Error() string {
	s := fmt.Sprintf("HTTP %d %s", e.StatusCode, http.StatusText(e.StatusCode))
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Retryable reports whether the status is worth retrying: 408, 429, 5xx.
func (e *StatusError) Retryable() bool {
	return e.StatusCode == http.StatusRequestTimeout || e.StatusCode == http.StatusTooManyRequests || e.StatusCode >= 500
}

// TimeoutError says an attempt got no complete response within
// Endpoint.Timeout, or (Whole) a call none within Endpoint.TotalTimeout.
type TimeoutError struct {
	// After is the timeout that expired.
	After time.Duration
	// Whole says After bounded the whole call, every attempt included.
	Whole bool
	// Last is, for a whole call cut short while waiting to retry, the
	// error of the attempt before the wait.
	Last error
	// Err is the error the HTTP client returned, if any.
	Err error
}

// Error says after how long the attempt, or the call, gave up.
func (e *TimeoutError) Error() string {
	if e.Whole && e.Last != nil {
		return fmt.Sprintf("no complete response within the call's %s; last error: %v", e.After, e.Last)
	}
	if e.Whole {
		return fmt.Sprintf("no complete response within the call's %s", e.After)
	}
	return fmt.Sprintf("no complete response within %s", e.After)
}

// Unwrap returns the HTTP client's error.
func (e *TimeoutError) Unwrap() error { return e.Err }

// ConnectionError says the request or its response was lost in transit
// (refused or reset connection, DNS failure, truncated body...).
type ConnectionError struct {
	// Err is the error the HTTP client returned.
	Err error
}

// Error describes the transport failure.
func (e *ConnectionError) Error() string { return "connection failed: " + e.Err.Error() }

// Unwrap returns the HTTP client's error.
func (e *ConnectionError) Unwrap() error { return e.Err }

// MalformedResponseError says a 2xx response was not a chat completion:
// invalid JSON, or JSON without a choice.
type MalformedResponseError struct {
	// Reason says what is wrong.
	Reason string
	// Body is the start of the response body.
	Body string
}

// Error gives the reason and the start of the body.
func (e *MalformedResponseError) Error() string {
	return fmt.Sprintf("malformed response: %s (body starts %q)", e.Reason, e.Body)
}

// ExhaustedError says every allowed attempt failed with a retryable error.
type ExhaustedError struct {
	// Attempts is how many attempts were made.
	Attempts int
	// Last is the error of the last attempt.
	Last error
}

// Error gives the number of attempts and the last cause.
func (e *ExhaustedError) Error() string {
	return fmt.Sprintf("gave up after %d attempts; last error: %v", e.Attempts, e.Last)
}

// Unwrap returns the last attempt's error.
func (e *ExhaustedError) Unwrap() error { return e.Last }

// ErrUnmeasured is what WithCacheStoreFailed is told, once per client, of
// an answer left out of the cache because it reports no output tokens: it
// measures nothing (SPEC §1), so a later identical call asks the provider
// again rather than replay it.
var ErrUnmeasured = errors.New("the provider's answer reports no output tokens (no usage): it measures nothing and is not cached; answers of this endpoint that report none are asked again every time")

// ErrNotSent ends a call that its Client, draining (WithDrain), did not
// send: it wraps context.Canceled, as a call its caller stopped, so that
// the caller leaves the work for the next run rather than recording a
// failure.
var ErrNotSent = fmt.Errorf("not sent: the client is draining (asked to stop): %w", context.Canceled)

// NotSentError is ErrNotSent for a call whose earlier attempt failed and
// was not retried because the Client was draining.
type NotSentError struct {
	// Attempts is how many attempts were made before the drain.
	Attempts int
	// Last is the error of the last attempt.
	Last error
}

// Error says that the retry was not sent, and why the attempt before it
// failed.
func (e *NotSentError) Error() string {
	return fmt.Sprintf("retry not sent: the client is draining (asked to stop); attempt %d failed: %v", e.Attempts, e.Last)
}

// Unwrap returns ErrNotSent.
func (e *NotSentError) Unwrap() error { return ErrNotSent }

// EndpointError names the endpoint an error of Complete comes from.
type EndpointError struct {
	// Endpoint is Endpoint.Name.
	Endpoint string
	// Err is the cause: a *StatusError, *ExhaustedError, a context error...
	Err error
}

// Error prefixes the cause with the endpoint's name.
func (e *EndpointError) Error() string {
	return fmt.Sprintf("llm endpoint %q: %v", e.Endpoint, e.Err)
}

// Unwrap returns the cause.
func (e *EndpointError) Unwrap() error { return e.Err }

// snippetBytes bounds the body excerpts kept in errors.
const snippetBytes = 512

// snippet returns the start of body, for error messages.
func snippet(body []byte) string {
	if len(body) > snippetBytes {
		return string(body[:snippetBytes]) + "…"
	}
	return string(body)
}

// newStatusError reads the provider's error out of an error response body.
// Providers disagree on the shape: OpenAI and most clones send {"error":
// {"message", "type", "code"}}, llama.cpp and Ollama sometimes {"error":
// "text"}, FastAPI-based servers {"detail": ...}.
func newStatusError(status int, body []byte) *StatusError {
	e := &StatusError{StatusCode: status}
	var shape struct {
		Error  json.RawMessage `json:"error"`
		Detail json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &shape) == nil {
		var obj struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Code    any    `json:"code"`
		}
		var text string
		switch {
		case json.Unmarshal(shape.Error, &obj) == nil && obj.Message != "":
			e.Message, e.Type = obj.Message, obj.Type
			if obj.Code != nil {
				e.Code = fmt.Sprint(obj.Code)
			}
		case json.Unmarshal(shape.Error, &text) == nil && text != "":
			e.Message = text
		case json.Unmarshal(shape.Detail, &text) == nil && text != "":
			e.Message = text
		case len(shape.Detail) > 0:
			e.Message = snippet(shape.Detail)
		}
	}
	if e.Message == "" {
		e.Message = strings.TrimSpace(snippet(body))
	}
	return e
}

// Reason describes a Complete error for callers on the other side of a trust
// boundary: the HTTP status and the provider's error code when it is a short
// identifier ("HTTP 400 Bad Request (context_length_exceeded)"), the
// timeout, or the kind of failure — never a response body, a provider's
// message, a URL or an address, which may carry secrets (an internal
// service's error page, a key echoed back) or map a network. The full
// error stays available to the server through err itself.
func Reason(err error) string {
	var (
		status    *StatusError
		timeout   *TimeoutError
		conn      *ConnectionError
		malformed *MalformedResponseError
		exhausted *ExhaustedError
		invalid   *apperr.InvalidArgumentError
	)
	switch {
	case errors.As(err, &exhausted):
		return fmt.Sprintf("gave up after %d attempts; last error: %s", exhausted.Attempts, Reason(exhausted.Last))
	case errors.As(err, &status):
		s := fmt.Sprintf("HTTP %d %s", status.StatusCode, http.StatusText(status.StatusCode))
		for _, code := range []string{status.Code, status.Type} {
			if safeCode.MatchString(code) {
				return s + " (" + code + ")"
			}
		}
		return s
	case errors.As(err, &timeout) && timeout.Whole && timeout.Last != nil:
		return fmt.Sprintf("no complete response within the call's %s; last error: %s", timeout.After, Reason(timeout.Last))
	case errors.As(err, &timeout):
		return (&TimeoutError{After: timeout.After, Whole: timeout.Whole}).Error()
	case errors.As(err, &conn):
		return "connection failed"
	case errors.As(err, &malformed):
		return "malformed response"
	case errors.As(err, &invalid):
		return invalid.Error()
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "the call ended before a response"
	}
	return "request failed"
}

// safeCode matches provider error codes and types that can be shown as
// they are: short identifiers such as "context_length_exceeded".
var safeCode = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.-]{0,63}$`)
