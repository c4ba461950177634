package server

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
)

// How many refusal lines the log takes: a burst of refusalLogBurst, then
// refusalLogRate a second. An operator sees every refusal of a mistyped
// token or a client that forgot one; a flood of calls without a valid
// token costs the server their headers, not a log line each.
const (
	refusalLogBurst = 50
	refusalLogRate  = 10
)

// refusalLog logs the calls refused before their body was read (by the
// tap, or by the HTTP/JSON gateway) within its budget, and counts those it
// did not log: the next line it logs says how many (refusals_not_logged).
type refusalLog struct {
	logger    *slog.Logger
	now       func() time.Time
	budget    *rate.Limiter
	notLogged atomic.Int64
}

func newRefusalLog(logger *slog.Logger, now func() time.Time) *refusalLog {
	if now == nil {
		now = time.Now
	}
	return &refusalLog{logger: logger, now: now, budget: rate.NewLimiter(refusalLogRate, refusalLogBurst)}
}

// log logs a refused call (protocol "grpc" or "http") as the logging
// interceptor logs the calls it sees — one "finished call" line with the
// service, the method, the code and the peer — marked refused_before_read,
// when the budget allows; otherwise it only counts it.
func (r *refusalLog) log(ctx context.Context, protocol, fullMethod string, err error) {
	if !r.budget.AllowN(r.now(), 1) {
		r.notLogged.Add(1)
		return
	}
	st := status.Convert(err)
	level := slog.LevelInfo
	if st.Code() != codes.Unauthenticated {
		level = slog.LevelWarn
	}
	service, method := splitMethod(fullMethod)
	attrs := []slog.Attr{
		slog.String("protocol", protocol),
		slog.String("grpc.component", "server"),
		slog.String("grpc.service", service),
		slog.String("grpc.method", method),
		slog.String("grpc.code", st.Code().String()),
		slog.String("grpc.error", st.Message()),
	}
	if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
		attrs = append(attrs, slog.String("peer.address", p.Addr.String()))
	}
	attrs = append(attrs, slog.Bool("refused_before_read", true))
	if n := r.notLogged.Swap(0); n > 0 {
		attrs = append(attrs, slog.Int64("refusals_not_logged", n))
	}
	r.logger.LogAttrs(ctx, level, "finished call", attrs...)
}
