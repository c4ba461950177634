package server

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	middleware "github.com/grpc-ecosystem/go-grpc-middleware/v2"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/ratelimit"
	"golang.org/x/time/rate"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/triage-eval/triage/internal/platform/apperr"
)

// Limits bound what each caller may ask of a server: each token, or, on a
// server without tokens, each peer address (peers.go), so that one process
// cannot take the slots of everyone else. Health checks (isOpenHealth) are
// never limited; a health Watch counts against its caller's calls admitted
// but takes no slot.
// The zero value limits nothing.
type Limits struct {
	// Rate is how many calls per second a caller may start, sustained; 0
	// means no rate limit. Calls over it are ResourceExhausted with an
	// errdetails.RetryInfo saying when the caller's bucket has room again.
	Rate float64
	// Burst is how many calls a caller may start at once above Rate (the
	// token bucket's size); 0 means max(1, ⌈Rate⌉).
	Burst int
	// MaxConcurrent is how many calls of one caller may run at once; 0 means
	// no limit. Further calls wait for a slot, within their deadline, up to
	// QueuedPerSlot × MaxConcurrent of them; beyond that they are
	// ResourceExhausted with a RetryInfo of QueueFullRetry. The tap, and the
	// HTTP/JSON gateway's admission (Server.Admit), count a caller's calls
	// from their headers on, so at most
	// (1 + QueuedPerSlot) × MaxConcurrent are admitted at once, however far
	// each has got (a unary call whose request has not arrived holds no
	// slot yet, but counts).
	MaxConcurrent int
}

// ParseRate reads a rate such as "50/s", "600/m", "1000/h" or "12.5" (per
// second) into calls per second, as --rate-limit and a token file's rate=
// give it.
func ParseRate(v string) (float64, error) {
	num, unit, _ := strings.Cut(strings.TrimSpace(v), "/")
	per := time.Second
	switch strings.TrimSpace(unit) {
	case "", "s":
	case "m":
		per = time.Minute
	case "h":
		per = time.Hour
	default:
		return 0, fmt.Errorf("unknown unit %q: use N/s, N/m or N/h", unit)
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || n < 0 || math.IsInf(n, 0) || math.IsNaN(n) {
		return 0, fmt.Errorf("want a rate ≥ 0 such as 50/s, 600/m or 12.5 (per second), got %q", v)
	}
	return n / per.Seconds(), nil
}

// QueuedPerSlot is how many calls per concurrency slot may wait for one.
const QueuedPerSlot = 4

// QueueFullRetry is the retry delay suggested to a caller whose waiting
// calls already fill its queue.
const QueueFullRetry = time.Second

// DefaultLimits are the limits triage serve applies unless told otherwise;
// servers inside a command's own process (package inproc) apply none. No
// rate limit: the calls of one caller are bounded by the concurrency limit
// and each call's work bound, and a rate limit suits deployments that know
// their callers.
func DefaultLimits() Limits {
	return Limits{MaxConcurrent: 16}
}

// validate reports a negative setting.
func (l Limits) validate() error {
	if l.Rate < 0 || math.IsNaN(l.Rate) || math.IsInf(l.Rate, 0) || l.Burst < 0 || l.MaxConcurrent < 0 {
		return fmt.Errorf("limits must be ≥ 0 and finite: rate %v, burst %d, max concurrent %d", l.Rate, l.Burst, l.MaxConcurrent)
	}
	return nil
}

// callerLimits is the state of one caller's limits.
type callerLimits struct {
	rate    *rate.Limiter // nil: no rate limit
	slots   chan struct{} // nil: no concurrency limit
	waiting atomic.Int64
	calls   int // calls admitted and not ended, under limiter.mu
	// limits are the caller's: the server's, or its token's own.
	limits Limits
}

// idle reports whether forgetting c changes nothing: no call of its caller
// is admitted, none still holds a slot (a handler that has not returned
// though its call ended), and its token bucket is full again. Under
// limiter.mu.
func (c *callerLimits) idle(now time.Time) bool {
	return c.calls == 0 && len(c.slots) == 0 && (c.rate == nil || c.rate.TokensAt(now) >= float64(c.rate.Burst()))
}

// minSweep is the number of callers below which the limiter never sweeps.
const minSweep = 64

// limiter keeps each caller's limits. Callers are token names or peer
// addresses, which a client may have many of, so a caller is forgotten
// once idle: when its last call ends with its bucket full, or by a sweep
// when the table has doubled since the last one.
type limiter struct {
	cfg     Limits
	now     func() time.Time
	mu      sync.Mutex
	callers map[string]*callerLimits
	sweepAt int // sweep when the table grows past this
}

func newLimiter(cfg Limits) *limiter {
	return &limiter{cfg: cfg, now: time.Now, callers: map[string]*callerLimits{}, sweepAt: minSweep}
}

// enter counts one more call of caller and returns its limits (the
// server's, with those own sets in their place), and the func to call
// once when the call ends; or, when the caller has its most calls
// admitted already, an apperr.ResourceExhaustedError.
func (l *limiter) enter(caller string, own tokenLimits) (*callerLimits, func(), error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	c, ok := l.callers[caller]
	if !ok {
		if len(l.callers) >= l.sweepAt {
			l.sweep()
		}
		c = &callerLimits{limits: own.over(l.cfg)}
		if c.limits.Rate > 0 {
			burst := c.limits.Burst
			if burst == 0 {
				burst = max(1, int(math.Ceil(c.limits.Rate)))
			}
			c.rate = rate.NewLimiter(rate.Limit(c.limits.Rate), burst)
		}
		if c.limits.MaxConcurrent > 0 {
			c.slots = make(chan struct{}, c.limits.MaxConcurrent)
		}
		l.callers[caller] = c
	}
	if most := (1 + QueuedPerSlot) * c.limits.MaxConcurrent; most > 0 && c.calls >= most {
		return nil, nil, &apperr.ResourceExhaustedError{
			Reason:     fmt.Sprintf("the caller has %d calls admitted (running, waiting for one of its %d slots, or being read), its limit", c.calls, c.limits.MaxConcurrent),
			RetryAfter: QueueFullRetry,
		}
	}
	c.calls++
	return c, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		c.calls--
		if c.idle(l.now()) && l.callers[caller] == c {
			delete(l.callers, caller)
		}
	}, nil
}

// held returns caller's limits while it has calls admitted, or nil: the
// limits of a call the HTTP/JSON gateway forwards, counted already when the
// gateway admitted its request (Server.Admit), which ends after the call.
func (l *limiter) held(caller string) *callerLimits {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c := l.callers[caller]; c != nil && c.calls > 0 {
		return c
	}
	return nil
}

// sweep forgets the idle callers. Under l.mu.
func (l *limiter) sweep() {
	now := l.now()
	for name, c := range l.callers {
		if c.idle(now) {
			delete(l.callers, name)
		}
	}
	l.sweepAt = max(minSweep, 2*len(l.callers))
}

// callerLimitsKey is the context key of the *callerLimits of a call.
type callerLimitsKey struct{}

// withCallerLimits returns ctx carrying the limits of its caller.
func withCallerLimits(ctx context.Context, c *callerLimits) context.Context {
	return context.WithValue(ctx, callerLimitsKey{}, c)
}

// of returns the limits of the caller of ctx, which the tap counted.
func (l *limiter) of(ctx context.Context) *callerLimits {
	if c, ok := ctx.Value(callerLimitsKey{}).(*callerLimits); ok {
		return c
	}
	return &callerLimits{} // not counted by the tap: nothing to limit
}

// retryHintKey is the context key of the *retryHint of a call.
type retryHintKey struct{}

// retryHint carries the retry delay from the rate limiter, which runs inside
// the middleware's ratelimit interceptor, back out to rateInterceptors,
// since the middleware turns the limiter's error into a plain status.
type retryHint struct {
	after  time.Duration
	reason string // the limiter's own words, without the middleware's preamble
	set    bool
}

// Limit implements ratelimit.Limiter: it takes one token from the caller's
// bucket, or records when one will be there and refuses.
func (l *limiter) Limit(ctx context.Context) error {
	c := l.of(ctx)
	if c.rate == nil {
		return nil
	}
	r := c.rate.Reserve()
	d := r.Delay()
	if d == 0 {
		return nil
	}
	r.Cancel()
	reason := fmt.Sprintf("the caller's rate limit (%g calls/s, burst %d) is reached; retry in %s", c.limits.Rate, c.rate.Burst(), d.Round(time.Millisecond))
	if h, ok := ctx.Value(retryHintKey{}).(*retryHint); ok {
		h.after, h.reason, h.set = d, reason, true
	}
	return errors.New(reason)
}

// rateInterceptors wrap the middleware's ratelimit interceptors so that
// their ResourceExhausted carries an errdetails.RetryInfo (through
// apperr.ResourceExhaustedError, mapped by grpcerr, which also sets the
// grpc-retry-pushback-ms trailer that gRPC's own retry policy honours).
func (l *limiter) rateInterceptors() (grpc.UnaryServerInterceptor, grpc.StreamServerInterceptor) {
	unary := ratelimit.UnaryServerInterceptor(l)
	stream := ratelimit.StreamServerInterceptor(l)
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
			h := &retryHint{}
			resp, err := unary(context.WithValue(ctx, retryHintKey{}, h), req, info, handler)
			if h.set && status.Code(err) == codes.ResourceExhausted {
				return nil, &apperr.ResourceExhaustedError{Reason: h.reason, RetryAfter: h.after}
			}
			return resp, err
		}, func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
			h := &retryHint{}
			wrapped := middleware.WrapServerStream(ss)
			wrapped.WrappedContext = context.WithValue(ss.Context(), retryHintKey{}, h)
			err := stream(srv, wrapped, info, handler)
			if h.set && status.Code(err) == codes.ResourceExhausted {
				return &apperr.ResourceExhaustedError{Reason: h.reason, RetryAfter: h.after}
			}
			return err
		}
}

// acquire takes one of the caller's concurrency slots, waiting for one while
// ctx allows if the queue has room. The returned func gives it back.
func (l *limiter) acquire(ctx context.Context) (func(), error) {
	c := l.of(ctx)
	if c.slots == nil {
		return func() {}, nil
	}
	release := func() { <-c.slots }
	select {
	case c.slots <- struct{}{}:
		return release, nil
	default:
	}
	queue := int64(QueuedPerSlot * cap(c.slots))
	if c.waiting.Add(1) > queue {
		c.waiting.Add(-1)
		return nil, &apperr.ResourceExhaustedError{
			Reason:     fmt.Sprintf("the caller has %d calls running and %d waiting, its limit", cap(c.slots), queue),
			RetryAfter: QueueFullRetry,
		}
	}
	defer c.waiting.Add(-1)
	select {
	case c.slots <- struct{}{}:
		return release, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// concurrencyInterceptors hold a slot for the whole call.
func (l *limiter) concurrencyInterceptors() (grpc.UnaryServerInterceptor, grpc.StreamServerInterceptor) {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
			release, err := l.acquire(ctx)
			if err != nil {
				return nil, err
			}
			defer release()
			return handler(ctx, req)
		}, func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
			release, err := l.acquire(ss.Context())
			if err != nil {
				return err
			}
			defer release()
			return handler(srv, ss)
		}
}
