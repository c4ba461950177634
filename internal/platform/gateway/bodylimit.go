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
)

// cappedBody is a request body read through http.MaxBytesReader that
// remembers whether the client sent more than the cap, so that the error
// handler can answer 413 instead of the 400 grpc-gateway gives every body
// it cannot decode.
type cappedBody struct {
	io.ReadCloser
	limit    int64
	overflow bool
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
	body := &cappedBody{ReadCloser: http.MaxBytesReader(w, r.Body, limit), limit: limit}
	r = r.WithContext(context.WithValue(r.Context(), cappedBodyKey{}, body))
	r.Body = body
	return r
}

// errorHandler is grpc-gateway's default error handler, except for a body
// over its cap: HTTP 413 with a google.rpc.Status of code
// RESOURCE_EXHAUSTED (what the gRPC server answers a message over its
// limit) naming the cap, instead of a decode error.
func errorHandler(ctx context.Context, mux *runtime.ServeMux, m runtime.Marshaler, w http.ResponseWriter, r *http.Request, err error) {
	if body, ok := r.Context().Value(cappedBodyKey{}).(*cappedBody); ok && body.overflow {
		err = &runtime.HTTPStatusError{
			HTTPStatus: http.StatusRequestEntityTooLarge,
			Err:        status.Error(codes.ResourceExhausted, fmt.Sprintf("request body too large: more than %d bytes", body.limit)),
		}
	}
	runtime.DefaultHTTPErrorHandler(ctx, mux, m, w, r, err)
}
