package grpcerr

import (
	"context"

	"google.golang.org/grpc"
)

// UnaryServerInterceptor maps every handler error with ToStatus; an
// Unavailable or ResourceExhausted answer carries the trailer that tells
// clients whether and when to retry it (see pushbackOf).
func UnaryServerInterceptor() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		resp, err := handler(ctx, req)
		err = ToStatus(err)
		trailUnary(ctx, err)
		return resp, err
	}
}

// StreamServerInterceptor mirrors UnaryServerInterceptor for streams.
func StreamServerInterceptor() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		err := ToStatus(handler(srv, ss))
		trailStream(ss, err)
		return err
	}
}
