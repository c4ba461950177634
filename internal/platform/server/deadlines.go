package server

import (
	"context"
	"fmt"
	"time"

	middleware "github.com/grpc-ecosystem/go-grpc-middleware/v2"
	"google.golang.org/grpc"
)

// Deadlines are given to calls that arrive without a deadline of their own,
// so that no call a client forgot runs forever. A deadline the client set is
// left alone, longer or shorter. Health checks get none.
type Deadlines struct {
	// Default bounds unary calls; 0 leaves them unbounded.
	Default time.Duration
	// Long bounds the calls that may legitimately run long: streams
	// (RunBaseline solves its problems one model call after another,
	// ImportGroundTruth reads what the client sends) and the unary methods a
	// service names through LongRunner (CreatePlan waits on a model); 0
	// leaves them unbounded.
	Long time.Duration
}

// DefaultDeadlines are the deadlines triage serve applies unless told
// otherwise: 2 minutes for unary calls, whose work bounds keep them to
// seconds, and 24 hours for the long ones, which fits a RunBaseline batch of
// triage baseline (1,000 problems) at a minute per problem.
func DefaultDeadlines() Deadlines {
	return Deadlines{Default: 2 * time.Minute, Long: 24 * time.Hour}
}

// validate reports a negative deadline.
func (d Deadlines) validate() error {
	if d.Default < 0 || d.Long < 0 {
		return fmt.Errorf("default deadlines must be ≥ 0, got %v and %v", d.Default, d.Long)
	}
	return nil
}

// LongRunner is implemented by services some of whose unary methods may run
// long (e.g. waiting on a language model); those get Deadlines.Long.
type LongRunner interface {
	// LongRunning reports whether the method (a full name,
	// "/pkg.Service/Method") may run long.
	LongRunning(fullMethod string) bool
}

// withDefault returns ctx with a deadline of d if it has none and d > 0.
func withDefault(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok || d <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, d)
}

// deadlineInterceptors apply d.
func (d Deadlines) interceptors() (grpc.UnaryServerInterceptor, grpc.StreamServerInterceptor) {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
			limit := d.Default
			if lr, ok := info.Server.(LongRunner); ok && lr.LongRunning(info.FullMethod) {
				limit = d.Long
			}
			ctx, cancel := withDefault(ctx, limit)
			defer cancel()
			return handler(ctx, req)
		}, func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
			ctx, cancel := withDefault(ss.Context(), d.Long)
			defer cancel()
			wrapped := middleware.WrapServerStream(ss)
			wrapped.WrappedContext = ctx
			return handler(srv, wrapped)
		}
}
