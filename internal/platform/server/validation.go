package server

import (
	"context"

	"google.golang.org/grpc"
)

// RequestValidator is implemented by services that check their requests
// before the handler runs. ValidateRequest returns an
// *apperr.InvalidArgumentError listing every invalid field, or nil.
type RequestValidator interface {
	ValidateRequest(fullMethod string, req any) error
}

// validationUnaryInterceptor runs the service's RequestValidator, if any.
func validationUnaryInterceptor(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if v, ok := info.Server.(RequestValidator); ok {
		if err := v.ValidateRequest(info.FullMethod, req); err != nil {
			return nil, err
		}
	}
	return handler(ctx, req)
}
