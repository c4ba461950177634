package grpcerr

import (
	"context"

	"google.golang.org/grpc"
)

// UnaryServerInterceptor maps every handler error with ToStatus.
func UnaryServerInterceptor() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		resp, err := handler(ctx, req)
		return resp, ToStatus(err)
	}
}

// StreamServerInterceptor maps every stream handler error with ToStatus.
func StreamServerInterceptor() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		return ToStatus(handler(srv, ss))
	}
}
