package llm

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"
)

// maxResponseBytes bounds the response body the transport buffers.
const maxResponseBytes = 64 << 20

// exchange carries one attempt through go-openai to the transport and
// back: the body to send on the way out (wireRequest.body), and on the way
// back what go-openai does not report (the status and Retry-After of
// failures, the raw body with the reasoning fields). One attempt owns it;
// the transport runs in the attempt's goroutine (http.Client calls
// RoundTrip synchronously), so it needs no lock.
type exchange struct {
	// request is the body sent in place of go-openai's.
	request []byte

	// sent is set when the request was handed to the base transport.
	sent bool
	// status and retryAfter come from the response head; status 0 means
	// no response arrived.
	status     int
	retryAfter string
	// body is the complete response body.
	body []byte
	// readErr is set when the body could not be read in full.
	readErr error
}

// emptyObject is the body go-openai decodes in place of a 2xx answer's.
var emptyObject = []byte("{}")

// exchangeKey is the context key of the *exchange of an attempt.
type exchangeKey struct{}

// withExchange returns ctx carrying x for the transport.
func withExchange(ctx context.Context, x *exchange) context.Context {
	return context.WithValue(ctx, exchangeKey{}, x)
}

// transport wraps the HTTP transport go-openai uses. For requests whose
// context carries an *exchange it sends the exchange's body in place of
// go-openai's (which lacks a zero temperature, the extra body parameters
// and, handed wireRequest.shell, the messages), and records the status,
// the Retry-After header and the complete body of the response (go-openai
// drops the headers of failures and ignores vLLM's "reasoning" field). A
// 2xx body is parsed once, by parseResponse: go-openai is given an empty
// object in its place. Other requests pass through untouched.
type transport struct {
	base http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	x, _ := req.Context().Value(exchangeKey{}).(*exchange)
	if x == nil {
		return t.base.RoundTrip(req)
	}
	if req.Body != nil {
		_ = req.Body.Close() // go-openai's encoding, replaced
	}
	out := x.request
	req = req.Clone(req.Context())
	req.Body = io.NopCloser(bytes.NewReader(out))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(out)), nil }
	req.ContentLength = int64(len(out))
	x.sent = true
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	x.status = resp.StatusCode
	x.retryAfter = resp.Header.Get("Retry-After")
	body, err := readAll(io.LimitReader(resp.Body, maxResponseBytes+1), resp.ContentLength)
	_ = resp.Body.Close() // what the caller gets was read, or err says why not
	if err == nil && len(body) > maxResponseBytes {
		err = fmt.Errorf("response body exceeds %d bytes", maxResponseBytes)
	}
	if err != nil {
		x.readErr = err
		return nil, err
	}
	x.body = body
	if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		body = emptyObject
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	return resp, nil
}

// readAll is io.ReadAll into a buffer of the announced size (size <= 0:
// unknown), so that a body of the size its head announced is read without
// growing the buffer on the way.
func readAll(r io.Reader, size int64) ([]byte, error) {
	if size <= 0 || size > maxResponseBytes {
		return io.ReadAll(r)
	}
	b := make([]byte, 0, size+1) // +1: the read that meets EOF needs room
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// newBaseTransport returns the default HTTP transport of a Client that
// keeps up to concurrency requests in flight: every connection of a burst
// stays idle for reuse (MaxIdleConnsPerHost >= concurrency), so a busy
// client does not pay a TCP and TLS handshake per call.
func newBaseTransport(concurrency int) *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = max(concurrency, 2)
	t.MaxIdleConns = max(t.MaxIdleConns, concurrency)
	t.IdleConnTimeout = 90 * time.Second
	return t
}
