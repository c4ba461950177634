package llm

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"os"
	"time"

	"go.opentelemetry.io/otel/metric"
)

// Option configures a Client.
type Option func(*options)

// options are the injectable dependencies of a Client.
type options struct {
	cache      Cache
	httpClient *http.Client
	now        func() time.Time
	sleep      func(context.Context, time.Duration) error
	getenv     func(string) string
	rand       func() float64
	backoff    struct{ base, max time.Duration }
	meter      metric.MeterProvider
	drain      <-chan struct{}
	// cacheStoreFailed reports a fresh response the cache did not store.
	cacheStoreFailed func(context.Context, error)
}

// defaultOptions returns the production dependencies: no cache, a tuned
// HTTP transport, the real clock, a context-aware sleep, os.Getenv and
// math/rand/v2.
func defaultOptions() options {
	o := options{
		now:    time.Now,
		sleep:  sleepContext,
		getenv: os.Getenv,
		rand:   rand.Float64,
		// A failure to store is never silent, even for a caller that
		// did not say where it goes.
		cacheStoreFailed: logCacheStoreFailed,
	}
	o.backoff.base, o.backoff.max = DefaultBackoffBase, DefaultBackoffMax
	return o
}

// WithCache serves repeated calls from c and stores successful responses
// in it. A nil c (the default) switches caching off.
func WithCache(c Cache) Option { return func(o *options) { o.cache = c } }

// WithHTTPClient makes the Client send through a copy of hc whose
// transport is wrapped by the gateway's (nil Transport means
// http.DefaultTransport). The default is a dedicated transport sized for
// Endpoint.Concurrency. Leave hc.Timeout zero: Endpoint.Timeout bounds
// each attempt.
func WithHTTPClient(hc *http.Client) Option { return func(o *options) { o.httpClient = hc } }

// WithClock sets the clock used for ObtainedAt, Latency and HTTP-date
// Retry-After values.
func WithClock(now func() time.Time) Option { return func(o *options) { o.now = now } }

// WithSleep sets how the Client waits between attempts; sleep must return
// ctx's error if ctx ends first.
func WithSleep(sleep func(ctx context.Context, d time.Duration) error) Option {
	return func(o *options) { o.sleep = sleep }
}

// WithGetenv sets how the Client reads the API key variable.
func WithGetenv(getenv func(string) string) Option { return func(o *options) { o.getenv = getenv } }

// WithRand sets the source of backoff jitter: uniform floats in [0, 1).
// It is called from concurrent calls and must be safe for that.
func WithRand(rand func() float64) Option { return func(o *options) { o.rand = rand } }

// WithMeterProvider records the gateway's metrics (calls by outcome,
// tokens, retries; see metrics.go) with mp. The default records nothing.
func WithMeterProvider(mp metric.MeterProvider) Option { return func(o *options) { o.meter = mp } }

// WithDrain makes the Client send nothing once drain closes: a call
// waiting for a concurrency slot, or to retry after a failed attempt, then
// ends with ErrNotSent, and the requests already sent are answered as
// usual. It is how a command's first interrupt keeps its promise that no
// model call starts after it, whatever the endpoint's concurrency queues.
// Nil (the default) never drains.
func WithDrain(drain <-chan struct{}) Option { return func(o *options) { o.drain = drain } }

// WithCacheStoreFailed makes f report each fresh response that Complete
// could not store in the cache (its database unreachable, say): err, an
// *EndpointError naming the endpoint, says why. Complete returns such a
// response with a nil error all the same — the provider answered and was
// paid, and the caller uses the answer — so f is how the failure is seen;
// only the next identical call asks the provider again. f is called from
// concurrent calls and must be safe for that. Nil (the default) logs a
// warning with log/slog's default logger.
func WithCacheStoreFailed(f func(ctx context.Context, err error)) Option {
	return func(o *options) {
		if f == nil {
			f = logCacheStoreFailed
		}
		o.cacheStoreFailed = f
	}
}

// logCacheStoreFailed is the default of WithCacheStoreFailed.
func logCacheStoreFailed(ctx context.Context, err error) {
	slog.WarnContext(ctx, CacheStoreFailedMessage, "err", err)
}

// CacheStoreFailedMessage says what a cache store failure reported by
// WithCacheStoreFailed means for the call: its answer is used, and only
// the cache misses it.
const CacheStoreFailedMessage = "a model's answer could not be stored in the LLM cache; it is used all the same, and the next identical call asks the model again"

// sleepContext waits d, or until ctx ends.
func sleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
