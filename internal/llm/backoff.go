package llm

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Backoff defaults: the n-th retry waits a uniformly random time in
// [0, min(DefaultBackoffMax, DefaultBackoffBase·2^(n-1))) ("full jitter"),
// unless the response said how long to wait with Retry-After.
const (
	// DefaultBackoffBase is the jitter window of the first retry.
	DefaultBackoffBase = time.Second
	// DefaultBackoffMax caps the jitter window.
	DefaultBackoffMax = time.Minute
	// MaxRetryAfter caps the wait a Retry-After header can impose.
	MaxRetryAfter = 5 * time.Minute
)

// backoff computes the wait before a retry.
type backoff struct {
	base, max time.Duration
	// rand returns a uniform float in [0, 1).
	rand func() float64
}

// delay returns the wait before retry number retry (1 for the first).
func (b backoff) delay(retry int) time.Duration {
	window := b.max
	if shift := retry - 1; shift < 62 && b.base > 0 && b.base <= b.max>>shift {
		window = b.base << shift
	}
	return time.Duration(b.rand() * float64(window))
}

// parseRetryAfter reads a Retry-After header value: delay-seconds or an
// HTTP-date (RFC 9110 §10.2.3), relative to now. It reports false for an
// absent or unreadable value. A date in the past means no wait; the result
// is capped at MaxRetryAfter.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	var d time.Duration
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		// Integers per the RFC; some providers send fractions ("1.5").
		if secs < 0 {
			return 0, false
		}
		if secs > MaxRetryAfter.Seconds() {
			return MaxRetryAfter, true
		}
		d = time.Duration(secs * float64(time.Second))
	} else if at, err := http.ParseTime(v); err == nil {
		d = max(at.Sub(now), 0)
	} else {
		return 0, false
	}
	return min(d, MaxRetryAfter), true
}
