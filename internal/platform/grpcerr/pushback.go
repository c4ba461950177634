package grpcerr

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// RetryPushbackKey is the trailer with which a server tells gRPC clients
// whether and when to retry a call (gRFC A6); a negative value means never.
const RetryPushbackKey = "grpc-retry-pushback-ms"

// noRetry is the trailer of a call the service itself answered Unavailable.
// Clients retry Unavailable (see the CLI's service config) because a server
// that restarts, drains or crashes answers it before any service code runs;
// when the service answers it, it is about a dependency that stays down
// after the service's own retries (a model endpoint after the LLM gateway's
// attempts), and retrying the whole call would only multiply them.
func noRetry(err error) metadata.MD {
	if status.Code(err) != codes.Unavailable {
		return nil
	}
	return metadata.Pairs(RetryPushbackKey, "-1")
}

// trailUnary sets the no-retry trailer of a unary call's mapped error.
func trailUnary(ctx context.Context, err error) {
	if md := noRetry(err); md != nil {
		_ = grpc.SetTrailer(ctx, md) // only fails outside a call
	}
}

// trailStream sets the no-retry trailer of a stream's mapped error.
func trailStream(ss grpc.ServerStream, err error) {
	if md := noRetry(err); md != nil {
		ss.SetTrailer(md)
	}
}
