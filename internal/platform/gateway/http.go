package gateway

import (
	"context"
	"crypto/tls"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"google.golang.org/protobuf/protoadapt"
)

// Paths whose calls may run long (streams, and CreatePlan, which waits on a
// model): they get ServerConfig.LongCallTimeout, the others CallTimeout.
// ImportPath also reads many messages from one body (MaxImportBytes).
const (
	ImportPath     = "/v1/ground-truth:import"
	BaselinePath   = "/v1/executor:runBaseline"
	PlanPath       = "/v1/planner:createPlan"
	ScoreBatchPath = "/v1/scoring:scorePlans"
)

// longPaths are the paths of long calls.
var longPaths = map[string]bool{ImportPath: true, BaselinePath: true, PlanPath: true, ScoreBatchPath: true}

// ServerConfig bounds the HTTP server in front of the mux.
type ServerConfig struct {
	// TLS, when set, serves HTTPS (requiring client certificates when it
	// does); nil serves plaintext.
	TLS *tls.Config
	// MaxBodyBytes caps a request body: one message, as large as the gRPC
	// server accepts.
	MaxBodyBytes int64
	// MaxImportBytes caps the body of an import, a stream of messages.
	MaxImportBytes int64
	// CallTimeout bounds reading a request and writing its answer (0: no
	// bound); LongCallTimeout does for long calls (longPaths). A little is
	// added to each, so that the gRPC deadline, which is the same, ends
	// the call first and its error can still be written.
	CallTimeout, LongCallTimeout time.Duration
	// MinBodyRate is the slowest a request body may arrive, in bytes a
	// second, once BodyGrace has passed: a body that falls behind is
	// answered HTTP 408 and the call ends, so that a client trickling its
	// body cannot hold a call (and its caller's concurrency slot) for long.
	// 0 sets no minimum.
	MinBodyRate int64
	// BodyGrace is how long a body may take before MinBodyRate counts.
	BodyGrace time.Duration
	// Drain is how long, once ctx ends, requests are still served (as the
	// gRPC server does while its health says NOT_SERVING); Grace how long
	// requests in flight then get before their connections are closed.
	Drain, Grace time.Duration
	// Hurry, when it closes during a shutdown (a second interrupt), ends
	// the drain and the grace period at once; nil never does.
	Hurry <-chan struct{}
	// Logger receives the server's own errors (bad TLS handshakes, …).
	Logger *slog.Logger
	// ErrorDetail, when set, is added to the google.rpc.Status of every
	// error the gateway answers itself (a body over its cap or too slow,
	// one it cannot decode, a route or method it does not serve): the
	// server's version stamp (SPEC §10), which the errors relayed from the
	// gRPC server carry already.
	ErrorDetail protoadapt.MessageV1
}

// deadlineSlack is added to the call deadlines for writing the answer.
const deadlineSlack = 10 * time.Second

// Header limits: how long a client may take to send its headers, and how
// large they may be.
const (
	readHeaderTimeout = 10 * time.Second
	maxHeaderBytes    = 64 << 10
	idleTimeout       = 2 * time.Minute
)

// bound caps each request's body, paces it, and sets the request's read
// and write deadlines.
func (c ServerConfig) bound(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		limit, timeout := c.MaxBodyBytes, c.CallTimeout
		if r.URL.Path == ImportPath {
			limit = c.MaxImportBytes
		}
		if longPaths[r.URL.Path] {
			timeout = c.LongCallTimeout
		}
		rc := http.NewResponseController(w)
		now := time.Now()
		var until time.Time
		if timeout > 0 {
			until = now.Add(timeout + deadlineSlack)
			_ = rc.SetReadDeadline(until) // unsupported only by test recorders
			_ = rc.SetWriteDeadline(until)
		}
		var p *pace
		if c.MinBodyRate > 0 {
			p = &pace{rc: rc, start: now, grace: c.BodyGrace, rate: c.MinBodyRate, until: until}
		}
		r = capBody(w, r, limit, p)
		if c.ErrorDetail != nil {
			r = r.WithContext(context.WithValue(r.Context(), errorDetailKey{}, c.ErrorDetail))
		}
		next.ServeHTTP(w, r)
	})
}

// answerSlack is how long, once the grace period is over, the requests
// still in flight get to answer 503 (their calls ended) before their
// connections are closed.
const answerSlack = 2 * time.Second

// errShuttingDown ends the requests still in flight when the grace period
// is over; errorHandler answers them 503.
var errShuttingDown = errors.New("the server is shutting down and its grace period for calls in flight is over")

// Serve serves h on lis until ctx ends, then keeps serving for the drain
// period, stops accepting, gives requests in flight the grace period, then
// ends them, each answered 503 (errShuttingDown) within answerSlack, and
// closes what is left: a caller cut off gets an answer it can retry, not an
// empty reply. It returns nil after a shutdown ctx asked for.
func Serve(ctx context.Context, lis net.Listener, h http.Handler, cfg ServerConfig) error {
	base, endInFlight := context.WithCancelCause(context.Background())
	defer endInFlight(nil)
	srv := &http.Server{
		BaseContext:       func(net.Listener) context.Context { return base },
		Handler:           cfg.bound(h),
		ReadHeaderTimeout: readHeaderTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(cfg.Logger.Handler(), slog.LevelWarn),
	}
	scheme := "http"
	if cfg.TLS != nil {
		srv.TLSConfig = cfg.TLS.Clone()
		scheme = "https"
	}
	cfg.Logger.InfoContext(ctx, "serving HTTP/JSON", "http_addr", lis.Addr().String(), "scheme", scheme)
	served := make(chan error, 1)
	go func() {
		if cfg.TLS != nil {
			served <- srv.ServeTLS(lis, "", "")
		} else {
			served <- srv.Serve(lis)
		}
	}()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	if cfg.Drain > 0 {
		t := time.NewTimer(cfg.Drain)
		select {
		case <-t.C:
		case <-cfg.Hurry:
			t.Stop()
		}
	}
	stopCtx, cancel := context.WithTimeout(context.Background(), cfg.Grace)
	defer cancel()
	if cfg.Hurry != nil {
		go func() {
			select {
			case <-cfg.Hurry:
				cancel()
			case <-stopCtx.Done():
			}
		}()
	}
	if err := srv.Shutdown(stopCtx); err != nil {
		cfg.Logger.Warn("HTTP grace period over; ending the requests in flight (503) and closing their connections")
		endInFlight(errShuttingDown)
		answerCtx, cancelAnswer := context.WithTimeout(context.Background(), answerSlack)
		defer cancelAnswer()
		if srv.Shutdown(answerCtx) != nil {
			_ = srv.Close()
		}
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
