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
// left alone, longer or shorter. Health checks get none. Idle bounds every
// call, health checks too, whatever its deadline (idle.go).
type Deadlines struct {
	// Default bounds unary calls; 0 leaves them unbounded.
	Default time.Duration
	// Long bounds the calls that may legitimately run long: streams
	// (RunBaseline solves its problems one model call after another,
	// ImportGroundTruth reads what the client sends) and the unary methods a
	// service names through LongRunner (CreatePlan waits on a model); 0
	// leaves them unbounded.
	Long time.Duration
	// Idle ends a call whose client keeps the server waiting this long:
	// for a unary request or a stream's next message to arrive, or for
	// room to send an answer (a client that reads nothing). The call ends
	// DeadlineExceeded, saying it was idle, and frees its concurrency
	// slot. 0 leaves calls unbounded. A message must arrive whole within
	// Idle: at the default, a 16 MiB message needs some 280 KB/s.
	Idle time.Duration
}

// DefaultDeadlines are the deadlines triage serve applies unless told
// otherwise: 2 minutes for unary calls, whose work bounds keep them to
// seconds, 24 hours for the long ones, which fits a RunBaseline batch of
// triage baseline (1,000 problems) at a minute per problem, and a minute of
// a silent client.
func DefaultDeadlines() Deadlines {
	return Deadlines{Default: 2 * time.Minute, Long: 24 * time.Hour, Idle: DefaultIdle}
}

// DefaultIdle is how long triage serve lets a client keep a call waiting
// (Deadlines.Idle) unless told otherwise.
const DefaultIdle = time.Minute

// validate reports a negative deadline.
func (d Deadlines) validate() error {
	if d.Default < 0 || d.Long < 0 || d.Idle < 0 {
		return fmt.Errorf("deadlines must be ≥ 0, got default %v, long %v, idle %v", d.Default, d.Long, d.Idle)
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
