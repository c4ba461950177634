package gateway

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"

	"github.com/triage-eval/triage/internal/platform/grpcerr"
)

// cappedBody is a request body read through http.MaxBytesReader that
// remembers whether the client sent more than the cap, so that the error
// handler can answer 413 instead of the 400 grpc-gateway gives every body
// it cannot decode.
type cappedBody struct {
	io.ReadCloser
	limit    int64
	overflow bool
	// unreadable is why the gateway could not decode a message of the body
	// (an apperr.InvalidArgumentError naming the field), set by bodyDecoder.
	unreadable error
	// pace, when set, fails the body if it arrives too slowly.
	pace *pace
	// single says the body holds one request message, as every route's but
	// an import's does: anything after its JSON value makes it unreadable.
	single bool
}

// Read reads the body and notes an overflow of the cap.
func (b *cappedBody) Read(p []byte) (int, error) {
	if b.pace != nil {
		b.pace.before()
	}
	n, err := b.ReadCloser.Read(p)
	if b.pace != nil {
		b.pace.after(n, err)
	}
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		b.overflow = true
	}
	return n, err
}

// pace is a minimum rate for a request body: after grace, the body must
// have arrived at rate bytes a second at least, counted from its start,
// or the read waiting for its next byte fails. Each read gets the read
// deadline of that byte (http.ResponseController), so a stalled client is
// cut off by the connection's own deadline, whatever the handler does; when
// the body ends, the call's own read deadline comes back, for the rest of
// the call.
type pace struct {
	rc    *http.ResponseController
	start time.Time
	grace time.Duration
	rate  int64     // bytes a second, > 0
	until time.Time // the call's own read deadline; zero for none
	read  int64     // bytes so far
	due   time.Time // the deadline of the read in progress
	slow  bool      // a read missed its deadline
}

// before sets the deadline of the next byte.
func (p *pace) before() {
	p.due = p.start.Add(p.grace + time.Duration(float64(p.read+1)/float64(p.rate)*float64(time.Second)))
	if !p.until.IsZero() && p.until.Before(p.due) {
		p.due = p.until
	}
	_ = p.rc.SetReadDeadline(p.due) // unsupported only by test recorders
}

// after counts what a read returned and, when the body is over, puts the
// call's deadline back. A body too slow keeps its passed deadline: the
// server must not wait for the rest of it (it would, to reuse the
// connection), and the connection is closed after the answer.
func (p *pace) after(n int, err error) {
	p.read += int64(n)
	if err == nil {
		return
	}
	if errors.Is(err, os.ErrDeadlineExceeded) && !p.due.Equal(p.until) {
		p.slow = true
		return
	}
	_ = p.rc.SetReadDeadline(p.until)
}

// tooSlow describes a body that failed its pace.
func (p *pace) tooSlow() string {
	return fmt.Sprintf("request body too slow: it must arrive at %d bytes/s or more after its first %v; %d bytes arrived in %v", p.rate, p.grace, p.read, time.Since(p.start).Round(time.Millisecond))
}

// cappedBodyKey is the request context key of the request's cappedBody.
type cappedBodyKey struct{}

// capBody caps r's body at limit bytes, and paces it when p is set, and
// returns r with the capped body, which its context also carries for
// errorHandler.
func capBody(w http.ResponseWriter, r *http.Request, limit int64, p *pace) *http.Request {
	return withBody(r, &cappedBody{ReadCloser: http.MaxBytesReader(w, r.Body, limit), limit: limit, pace: p})
}

// withBody returns r reading body, which its context also carries.
func withBody(r *http.Request, body *cappedBody) *http.Request {
	r = r.WithContext(context.WithValue(r.Context(), cappedBodyKey{}, body))
	r.Body = body
	return r
}

// trackBodies is the mux's middleware that gives every request a
// cappedBody, uncapped where Serve's cap is not in front of the mux, so that
// errorHandler learns why a body could not be decoded.
func trackBodies(next runtime.HandlerFunc) runtime.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request, params map[string]string) {
		if _, ok := r.Body.(*cappedBody); !ok && r.Body != nil {
			r = withBody(r, &cappedBody{ReadCloser: r.Body})
		}
		if body, ok := r.Body.(*cappedBody); ok {
			body.single = r.URL.Path != ImportPath
		}
		next(w, r, params)
	}
}

// bearerChallenge is a 401's WWW-Authenticate (RFC 6750): the scheme and
// realm, and invalid_token when the request carried a token.
func bearerChallenge(r *http.Request) string {
	if r.Header.Get("Authorization") == "" {
		return `Bearer realm="triage"`
	}
	return `Bearer realm="triage", error="invalid_token"`
}

// challenging writes challenge as the WWW-Authenticate of its answer, where
// grpc-gateway's default error handler writes the status's message.
type challenging struct {
	http.ResponseWriter
	challenge string
}

// WriteHeader sets the challenge, then writes the status.
func (c challenging) WriteHeader(code int) {
	c.Header().Set("WWW-Authenticate", c.challenge)
	c.ResponseWriter.WriteHeader(code)
}

// Flush flushes the answer (the default handler's writer is flushed after).
func (c challenging) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// errorHandler is grpc-gateway's default error handler, flushed, with an
// RFC 6750 challenge on a 401, except for a body
// the gateway could not decode. Slower than its pace: HTTP 408 with a
// google.rpc.Status of code DEADLINE_EXCEEDED saying so. Over its cap: HTTP 413 with a
// google.rpc.Status of code RESOURCE_EXHAUSTED (what the gRPC server answers
// a message over its limit) naming the cap. Not JSON, or JSON the message
// cannot hold: HTTP 400 INVALID_ARGUMENT with a BadRequest naming the field,
// as the server answers a value it rejects, instead of protojson's bare
// message.
func errorHandler(ctx context.Context, mux *runtime.ServeMux, m runtime.Marshaler, w http.ResponseWriter, r *http.Request, err error) {
	// answered: by the gateway itself, which made no call, so logged here.
	// An import's call (a body of many messages, not single) is made before
	// its body is read, and logged by the server.
	answered := false
	if body, ok := r.Context().Value(cappedBodyKey{}).(*cappedBody); ok {
		answered = body.single
		switch {
		case body.pace != nil && body.pace.slow:
			closeAfter(w, r)
			err = &runtime.HTTPStatusError{
				HTTPStatus: http.StatusRequestTimeout,
				Err:        status.Error(codes.DeadlineExceeded, body.pace.tooSlow()),
			}
		case body.overflow:
			err = &runtime.HTTPStatusError{
				HTTPStatus: http.StatusRequestEntityTooLarge,
				Err:        status.Error(codes.ResourceExhausted, fmt.Sprintf("request body too large: more than %d bytes", body.limit)),
			}
		case body.unreadable != nil && status.Code(err) == codes.InvalidArgument:
			err = grpcerr.ToStatus(body.unreadable)
		default:
			answered = false
		}
	}
	if shut := shutDown(r.Context()); shut != nil {
		err = &runtime.HTTPStatusError{HTTPStatus: http.StatusServiceUnavailable, Err: shut}
	}
	err = stamped(r.Context(), err)
	if answered {
		logAnswered(r, err)
	}
	if status.Code(err) == codes.Unauthenticated {
		w = challenging{ResponseWriter: w, challenge: bearerChallenge(r)}
	}
	if after, ok := retryAfter(err); ok {
		// What the body's RetryInfo says, where HTTP clients' retry logic
		// looks (urllib3's Retry, axios-retry).
		w.Header().Set("Retry-After", after)
	}
	runtime.DefaultHTTPErrorHandler(ctx, mux, m, w, r, err)
	// The answer goes out now, before the handler returns: over HTTP/2 the
	// server then resets a stream whose body is unread, and a reset sent
	// ahead of the buffered answer cuts it off (curl: "partial file").
	if f, ok := w.(http.Flusher); ok && r.ProtoMajor >= 2 {
		f.Flush() // on HTTP/1.x it would make the answer chunked, without its length
	}
}

// retryAfter is the Retry-After header (whole seconds, rounded up) of an
// error whose status carries an errdetails.RetryInfo, as a rate limit's
// refusal does; ok is false for one without.
func retryAfter(err error) (string, bool) {
	var hs *runtime.HTTPStatusError
	if errors.As(err, &hs) {
		err = hs.Err
	}
	for _, d := range status.Convert(err).Details() {
		if ri, ok := d.(*errdetails.RetryInfo); ok && ri.GetRetryDelay() != nil {
			delay := ri.GetRetryDelay().AsDuration()
			return strconv.FormatInt(int64(math.Ceil(max(delay, 0).Seconds())), 10), true
		}
	}
	return "", false
}

// errorDetailKey is the context key of ServerConfig.ErrorDetail.
type errorDetailKey struct{}

// withDetail is grpcerr.WithDetail, also inside the *runtime.HTTPStatusError
// by which the gateway gives its own errors their HTTP status.
func withDetail(err error, d protoadapt.MessageV1) error {
	var hs *runtime.HTTPStatusError
	if errors.As(err, &hs) {
		return &runtime.HTTPStatusError{HTTPStatus: hs.HTTPStatus, Err: grpcerr.WithDetail(grpcerr.ToStatus(hs.Err), d)}
	}
	return grpcerr.WithDetail(err, d)
}

// streamErrorHandler is the error of a streamed answer (a baseline's
// events) that has begun: grpc-gateway's default, status.Convert, but for
// a stream the end of the shutdown grace cut off, which ends Unavailable
// saying to retry (as errorHandler answers 503 before a stream begins),
// and with the server's version stamp (ServerConfig.ErrorDetail).
func streamErrorHandler(ctx context.Context, err error) *status.Status {
	if shut := shutDown(ctx); shut != nil {
		err = shut
	}
	return status.Convert(stamped(ctx, err))
}

// shutDown is the Unavailable of a request the end of the shutdown grace
// cut off (its context ended with errShuttingDown), or nil.
func shutDown(ctx context.Context) error {
	if !errors.Is(context.Cause(ctx), errShuttingDown) {
		return nil
	}
	return status.Error(codes.Unavailable, errShuttingDown.Error()+"; retry the call")
}

// stamped is err with the server's version stamp (ServerConfig.ErrorDetail,
// carried by ctx) among its details; err as it is without one.
func stamped(ctx context.Context, err error) error {
	if d, ok := ctx.Value(errorDetailKey{}).(protoadapt.MessageV1); ok {
		return withDetail(err, d)
	}
	return err
}
