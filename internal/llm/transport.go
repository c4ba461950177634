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
// back: the patch to apply on the way out, and on the way back what
// go-openai does not report (the status and Retry-After of failures, the
// raw body with the reasoning fields). One attempt owns it; the transport
// runs in the attempt's goroutine (http.Client calls RoundTrip
// synchronously), so it needs no lock.
type exchange struct {
	patch bodyPatch

	// patchErr is set when the body could not be patched.
	patchErr error
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

// exchangeKey is the context key of the *exchange of an attempt.
type exchangeKey struct{}

// withExchange returns ctx carrying x for the transport.
func withExchange(ctx context.Context, x *exchange) context.Context {
	return context.WithValue(ctx, exchangeKey{}, x)
}

// transport wraps the HTTP transport go-openai uses. For requests whose
// context carries an *exchange it patches the JSON body (go-openai drops
// temperature 0 and has no field for extra body parameters), and records
// the status, the Retry-After header and the complete body of the
// response (go-openai drops the headers of failures and ignores vLLM's
// "reasoning" field). Other requests pass through untouched.
type transport struct {
	base http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	x, _ := req.Context().Value(exchangeKey{}).(*exchange)
	if x == nil {
		return t.base.RoundTrip(req)
	}
	if req.Body != nil && req.Body != http.NoBody {
		raw, err := readAll(req.Body, req.ContentLength)
		_ = req.Body.Close() // read to the end or failed: nothing left to lose
		if err != nil {
			x.patchErr = err
			return nil, err
		}
		patched, err := patchBody(raw, x.patch)
		if err != nil {
			x.patchErr = err
			return nil, err
		}
		req = req.Clone(req.Context())
		req.Body = io.NopCloser(bytes.NewReader(patched))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(patched)), nil }
		req.ContentLength = int64(len(patched))
	}
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
