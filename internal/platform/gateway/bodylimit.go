package gateway

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

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
}

// Read reads the body and notes an overflow of the cap.
func (b *cappedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		b.overflow = true
	}
	return n, err
}

// cappedBodyKey is the request context key of the request's cappedBody.
type cappedBodyKey struct{}

// capBody caps r's body at limit bytes and returns r with the capped body,
// which its context also carries for errorHandler.
func capBody(w http.ResponseWriter, r *http.Request, limit int64) *http.Request {
	return withBody(r, &cappedBody{ReadCloser: http.MaxBytesReader(w, r.Body, limit), limit: limit})
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
		next(w, r, params)
	}
}

// errorHandler is grpc-gateway's default error handler, except for a body
// the gateway could not decode. Over its cap: HTTP 413 with a
// google.rpc.Status of code RESOURCE_EXHAUSTED (what the gRPC server answers
// a message over its limit) naming the cap. Not JSON, or JSON the message
// cannot hold: HTTP 400 INVALID_ARGUMENT with a BadRequest naming the field,
// as the server answers a value it rejects, instead of protojson's bare
// message.
func errorHandler(ctx context.Context, mux *runtime.ServeMux, m runtime.Marshaler, w http.ResponseWriter, r *http.Request, err error) {
	if body, ok := r.Context().Value(cappedBodyKey{}).(*cappedBody); ok {
		switch {
		case body.overflow:
			err = &runtime.HTTPStatusError{
				HTTPStatus: http.StatusRequestEntityTooLarge,
				Err:        status.Error(codes.ResourceExhausted, fmt.Sprintf("request body too large: more than %d bytes", body.limit)),
			}
		case body.unreadable != nil && status.Code(err) == codes.InvalidArgument:
			err = grpcerr.ToStatus(body.unreadable)
		}
	}
	runtime.DefaultHTTPErrorHandler(ctx, mux, m, w, r, err)
}
