package grpcerr

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/protoadapt"
)

// UnaryServerInterceptor maps every handler error with ToStatus, adds
// detail to it (WithDetail: the server's version stamp; nil adds none),
// and makes an Unavailable or ResourceExhausted answer carry the trailer
// that tells clients whether and when to retry it (see pushbackOf).
func UnaryServerInterceptor(detail protoadapt.MessageV1) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		resp, err := handler(ctx, req)
		err = WithDetail(ToStatus(err), detail)
		trailUnary(ctx, err)
		return resp, err
	}
}

// StreamServerInterceptor mirrors UnaryServerInterceptor for streams.
func StreamServerInterceptor(detail protoadapt.MessageV1) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		err := WithDetail(ToStatus(handler(srv, ss)), detail)
		trailStream(ss, err)
		return err
	}
}
