package server

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/logging"
	"golang.org/x/time/rate"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
)

// How many refusal lines the log takes, for each of its two budgets: a
// burst of refusalLogBurst, then refusalLogRate a second. An operator sees
// every refusal of a mistyped token or a client that forgot one; a flood
// of calls without a valid token costs the server their headers, not a
// log line each.
const (
	refusalLogBurst = 50
	refusalLogRate  = 10
	// refusalSummaryAfter is how long after the first refusal a budget
	// did not log a line sums up those it did not.
	refusalSummaryAfter = 10 * time.Second
)

// refusalLog logs the calls refused before their body was read (by the
// tap, or by the HTTP/JSON gateway) within a budget, and sums up in one
// line those it did not log. Calls without a valid token (Unauthenticated)
// and the others (PermissionDenied, a caller's limits) have a budget each,
// so that a flood of the first cannot hide the second.
type refusalLog struct {
	logger    *slog.Logger
	now       func() time.Time
	afterFunc func(time.Duration, func()) func() bool
	// unauthenticated and other budget the calls refused, answered the
	// HTTP requests the gateway answered itself (logAnswered).
	unauthenticated, other, answered refusalBudget
}

// refusalBudget is one budget of lines, the level its lines are logged at,
// what its refusals are (for its summary), and the count of refusals it
// did not log since its last summary.
type refusalBudget struct {
	lines     *rate.Limiter
	level     slog.Level
	refused   string
	notLogged atomic.Int64
}

func newRefusalLog(logger *slog.Logger, now func() time.Time, afterFunc func(time.Duration, func()) func() bool) *refusalLog {
	if now == nil {
		now = time.Now
	}
	if afterFunc == nil {
		afterFunc = realAfterFunc
	}
	r := &refusalLog{logger: logger, now: now, afterFunc: afterFunc}
	r.unauthenticated.lines, r.unauthenticated.level = rate.NewLimiter(refusalLogRate, refusalLogBurst), slog.LevelInfo
	r.unauthenticated.refused = "refused for their token"
	r.other.lines, r.other.level = rate.NewLimiter(refusalLogRate, refusalLogBurst), slog.LevelWarn
	r.other.refused = "refused for their permissions, their caller's limits or an unknown method"
	r.answered.lines, r.answered.level = rate.NewLimiter(refusalLogRate, refusalLogBurst), slog.LevelInfo
	r.answered.refused = "answered by the HTTP gateway itself: a body it could not read, or an unknown query parameter"
	return r
}

// log logs a refused call (protocol "grpc" or "http") as the logging
// interceptor logs the calls it sees — one "finished call" line with the
// service, the method, the code and the peer — marked refused_before_read,
// when its budget allows; otherwise it counts it for the budget's summary.
func (r *refusalLog) log(ctx context.Context, protocol, fullMethod string, err error) {
	st := status.Convert(err)
	b := &r.other
	if st.Code() == codes.Unauthenticated {
		b = &r.unauthenticated
	}
	r.line(ctx, b, b.level, protocol, fullMethod, st, slog.Bool("refused_before_read", true))
}

// logAnswered logs, as log does, an HTTP request the gateway answered
// itself without making its call (a body it could not read), marked
// answered_by_gateway, at the level the logging interceptor gives its
// code, within a budget of its own, so that a flood of bad bodies hides no
// refusal.
func (r *refusalLog) logAnswered(ctx context.Context, fullMethod string, err error) {
	st := status.Convert(err)
	r.line(ctx, &r.answered, slog.Level(logging.DefaultServerCodeToLevel(st.Code())), "http", fullMethod, st, slog.Bool("answered_by_gateway", true))
}

// line logs one "finished call" line at level, marked mark, if budget b
// allows; otherwise it counts it for b's summary.
func (r *refusalLog) line(ctx context.Context, b *refusalBudget, level slog.Level, protocol, fullMethod string, st *status.Status, mark slog.Attr) {
	if !b.lines.AllowN(r.now(), 1) {
		if b.notLogged.Add(1) == 1 { // the first since the last summary
			r.afterFunc(refusalSummaryAfter, func() { r.summarize(b) })
		}
		return
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
	attrs = append(attrs, mark)
	r.logger.LogAttrs(ctx, level, "finished call", attrs...)
}

// summarize logs how many refusals b did not log since its last summary.
func (r *refusalLog) summarize(b *refusalBudget) {
	n := b.notLogged.Swap(0)
	if n == 0 {
		return
	}
	r.logger.LogAttrs(context.Background(), b.level, "refused calls not logged",
		slog.Int64("refusals_not_logged", n), slog.String("refused", b.refused),
		slog.Duration("within", refusalSummaryAfter))
}
