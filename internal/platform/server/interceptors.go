package server

import (
	"context"
	"log/slog"
	"runtime/debug"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/logging"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/recovery"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/selector"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
)

// Log lines get their trace ids from the logger's handler (see
// telemetry.LogHandler), so every line logged with the call's context, the
// panic report included, carries one.

// unaryChain is the server's interceptor chain, outermost first: logging sees
// the final status, errors are mapped before it, the idle watch the tap
// started is taken over (idle.go), the guards (guards.go: default deadline,
// rate and concurrency limits) admit the call, requests are validated
// before the handler, and recovery is last so a panicking handler becomes
// Internal and is still logged. Authentication is not in the chain: the
// tap (tap.go) did it before the request was read.
func unaryChain(logger *slog.Logger, g guards, stamp *triagev1.VersionStamp) []grpc.UnaryServerInterceptor {
	idle, _ := idleInterceptors()
	chain := []grpc.UnaryServerInterceptor{
		selector.UnaryServerInterceptor(
			logging.UnaryServerInterceptor(rpcLogger(logger), loggingOptions()...),
			selector.MatchFunc(notHealth)),
		grpcerr.UnaryServerInterceptor(stamp),
		idle,
	}
	chain = append(chain, g.unary...)
	return append(chain,
		validationUnaryInterceptor,
		recovery.UnaryServerInterceptor(recovery.WithRecoveryHandlerContext(panicHandler(logger))),
	)
}

// streamChain mirrors unaryChain for streaming RPCs.
func streamChain(logger *slog.Logger, g guards, stamp *triagev1.VersionStamp) []grpc.StreamServerInterceptor {
	_, idle := idleInterceptors()
	chain := []grpc.StreamServerInterceptor{
		selector.StreamServerInterceptor(
			logging.StreamServerInterceptor(rpcLogger(logger), loggingOptions()...),
			selector.MatchFunc(notHealth)),
		grpcerr.StreamServerInterceptor(stamp),
		idle,
	}
	chain = append(chain, g.stream...)
	return append(chain,
		recovery.StreamServerInterceptor(recovery.WithRecoveryHandlerContext(panicHandler(logger))),
	)
}

func loggingOptions() []logging.Option {
	return []logging.Option{
		logging.WithLogOnEvents(logging.FinishCall),
	}
}

// rpcLogger adapts slog to the middleware's logger interface.
func rpcLogger(l *slog.Logger) logging.Logger {
	return logging.LoggerFunc(func(ctx context.Context, lvl logging.Level, msg string, fields ...any) {
		l.Log(ctx, slog.Level(lvl), msg, fields...)
	})
}

// notHealth keeps health checks, which probes send constantly, out of logs.
func notHealth(_ context.Context, c interceptors.CallMeta) bool {
	return !isHealth(serviceOf(c.FullMethod()))
}

// isHealth reports whether service is the health service: open to every
// caller, never limited.
func isHealth(service string) bool {
	return service == healthpb.Health_ServiceDesc.ServiceName
}

func panicHandler(logger *slog.Logger) recovery.RecoveryHandlerFuncContext {
	return func(ctx context.Context, p any) error {
		logger.ErrorContext(ctx, "handler panicked", "panic", p, "stack", string(debug.Stack()))
		return status.Error(codes.Internal, "internal error")
	}
}
