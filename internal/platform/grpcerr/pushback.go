package grpcerr

import (
	"context"
	"strconv"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// RetryPushbackKey is the trailer with which a server tells gRPC clients
// whether and when to retry a call (gRFC A6); a negative value means never.
const RetryPushbackKey = "grpc-retry-pushback-ms"

// pushbackOf is the pushback trailer of a mapped error, or nil: it tells
// clients whether and when to retry (the CLI's service config retries
// Unavailable and ResourceExhausted).
//
//   - Unavailable: never. A server that restarts, drains or crashes answers
//     Unavailable before any service code runs, and that is retried; when
//     the service itself answers it, it is about a dependency that stays
//     down after the service's own retries (a model endpoint after the LLM
//     gateway's attempts), and retrying the whole call would only multiply
//     them — unless it carries an errdetails.RetryInfo
//     (apperr.UnavailableError.Retry: the server itself is going away), which
//     gets no pushback, so that the client's policy retries it.
//   - ResourceExhausted with an errdetails.RetryInfo (a caller's rate or
//     queue limit): after its delay, when the caller's limit has room.
//   - ResourceExhausted without one (a response over the size limit): never,
//     it would only be computed and refused again.
func pushbackOf(err error) metadata.MD {
	switch status.Code(err) {
	case codes.Unavailable:
		if _, ok := RetryDelay(err); ok {
			return nil // a server going away: try again, elsewhere
		}
		return metadata.Pairs(RetryPushbackKey, "-1")
	case codes.ResourceExhausted:
		if d, ok := RetryDelay(err); ok {
			return metadata.Pairs(RetryPushbackKey, strconv.FormatInt(max(d.Milliseconds(), 1), 10))
		}
		return metadata.Pairs(RetryPushbackKey, "-1")
	}
	return nil
}

// trailUnary sets the pushback trailer of a unary call's mapped error.
func trailUnary(ctx context.Context, err error) {
	if md := pushbackOf(err); md != nil {
		_ = grpc.SetTrailer(ctx, md) // only fails outside a call
	}
}

// trailStream sets the pushback trailer of a stream's mapped error.
func trailStream(ss grpc.ServerStream, err error) {
	if md := pushbackOf(err); md != nil {
		ss.SetTrailer(md)
	}
}

// NoRetry reports whether trailer, a call's trailer metadata, tells the
// client never to retry it (a negative RetryPushbackKey): the reading of
// the trailer gRPC's retry policy makes, for a caller that retries a call
// itself.
func NoRetry(trailer metadata.MD) bool {
	v := trailer.Get(RetryPushbackKey)
	if len(v) == 0 {
		return false
	}
	ms, err := strconv.Atoi(v[0])
	return err != nil || ms < 0
}
