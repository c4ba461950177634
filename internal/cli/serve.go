package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/platform/gateway"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/telemetry"
	"github.com/triage-eval/triage/internal/platform/transport"
	"github.com/triage-eval/triage/internal/platform/version"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/services/planner"
)

// DefaultListen is where triage serve listens unless told otherwise.
const DefaultListen = "127.0.0.1:50051"

// DefaultStore is the embedded SQLite file used unless told otherwise.
const DefaultStore = "triage.db"

// DefaultLLMCache is the SQLite file model responses are cached in.
const DefaultLLMCache = "triage-llm-cache.db"

func runServe(ctx context.Context, args []string, env Env) (err error) {
	def := server.DefaultConfig()
	cfg := def
	cfg.Limits, cfg.Deadlines = server.DefaultLimits(), server.DefaultDeadlines()
	cfg.MaxConnectionAge = server.DefaultMaxConnectionAge
	fs := newFlagSet("serve", env.Stderr)
	listen := fs.String("listen", DefaultListen, "address to listen on (host:port)")
	httpListen := fs.String("http-listen", "", "also serve the HTTP/JSON gateway on this address (host:port), with the same TLS, tokens and limits; empty: off")
	maxImport := fs.Int64("http-max-import-bytes", defaultMaxImportBytes, "largest body of an HTTP ground-truth import (a stream of messages; other bodies are capped at --max-message-bytes)")
	minBodyRate := fs.Int64("http-min-body-rate", defaultMinBodyRate, "slowest an HTTP request body may arrive, in bytes/s, once --idle-timeout has passed; slower bodies are answered 408 (0, or --idle-timeout 0: no minimum)")
	services := fs.String("services", "", "comma-separated services to serve (default: all: executor, oracle, planner, scoring)")
	up := addUpstreamFlags(fs)
	endpoints := fs.String("endpoints", "", "JSON file of named LLM endpoints the Planner (planning) and the Executor (baselines) may use")
	var solve solveOptions
	fs.StringVar(&solve.judgeEndpoint, "judge-endpoint", "", "endpoint (in --endpoints) that judges exact answers matching cannot settle; empty for none")
	fs.StringVar(&solve.python, "python", "", "Python interpreter code problems run with (default: /usr/bin/python3, else /usr/local/bin/python3, else python3 on PATH)")
	fs.IntVar(&solve.codeConcurrency, "code-concurrency", 2, "programs run at once in the code sandbox")
	llmCache := fs.String("llm-cache", DefaultLLMCache, "cache of model responses: a SQLite file path or a postgres:// URL; \"off\" disables the cache")
	storeLoc := fs.String("store", DefaultStore, "ground-truth store: a SQLite file path, sqlite:PATH, or a postgres:// URL")
	fs.IntVar(&cfg.MaxMessageBytes, "max-message-bytes", def.MaxMessageBytes, "largest message received or sent")
	fs.DurationVar(&cfg.ShutdownGrace, "shutdown-grace", def.ShutdownGrace, "time in-flight RPCs get to finish on shutdown")
	fs.DurationVar(&cfg.Drain, "drain", def.Drain, "on shutdown, health says NOT_SERVING this long while calls are still served, before the graceful stop (0 disables)")
	fs.DurationVar(&cfg.KeepaliveTime, "keepalive-time", def.KeepaliveTime, "ping an idle connection this often")
	fs.DurationVar(&cfg.KeepaliveTimeout, "keepalive-timeout", def.KeepaliveTimeout, "close a connection whose ping goes unanswered this long")
	fs.DurationVar(&cfg.MaxConnectionAge, "max-connection-age", server.DefaultMaxConnectionAge, "ask a client to move to a new connection after this long (calls under way finish), so that clients balancing over the service's pods find new ones; 0: never")
	security := addServeSecurityFlags(fs, &cfg)
	logFormat := fs.String("log-format", "json", "log format: json or text")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn or error")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: triage serve [flags]\n\nEvery flag can also be set with TRIAGE_<FLAG> (e.g. TRIAGE_LISTEN);\nOpenTelemetry export is configured with the standard OTEL_* variables.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if _, err := parseFlags(fs, args, env.Getenv, 0); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	logger, err := newLogger(env.Stderr, *logFormat, *logLevel)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	build := version.Current()
	logger.Info("triage", "version", build.Version, "revision", build.Revision, "modified", build.Modified, "commit_time", build.CommitTime, "go", build.Go)
	if isSet(fs, "services") && strings.TrimSpace(*services) == "" {
		// An empty list given (a template's unset value) is not "all".
		return fmt.Errorf("%w: --services is empty: name the services to serve (executor, oracle, planner, scoring), or leave the flag out to serve all", ErrUsage)
	}
	names, err := serviceNames(*services)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	cfg.Hurry = env.hurry // a second interrupt cuts the drain and grace short
	if err := security.configure(&cfg); err != nil {
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	if cfg.Tokens != nil {
		for _, w := range cfg.Tokens.Warnings() {
			logger.Warn("--auth-tokens: " + w)
		}
	}
	if w := transport.CertificateWarning(cfg.TLS, time.Now()); w != "" {
		logger.Warn(w)
	}
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	if solve.codeConcurrency < 1 {
		return fmt.Errorf("%w: --code-concurrency must be ≥ 1, got %d", ErrUsage, solve.codeConcurrency)
	}
	if solve.judgeEndpoint != "" && slices.Contains(names, "executor") && *endpoints == "" {
		return fmt.Errorf("%w: --judge-endpoint %s names an endpoint of --endpoints, and none is given", ErrUsage, solve.judgeEndpoint)
	}
	tel := env.Telemetry
	defer flushTelemetry(tel, logger.Warn) // before Run's, so failures go to the log
	deps := serviceDeps{now: time.Now, tel: tel}
	up.maxMessageBytes = cfg.MaxMessageBytes
	up.logger = logger
	upstream, closeUpstream, err := up.dial(names, tel)
	if err != nil {
		return err
	}
	defer closeUpstream()
	deps.upstream = upstream
	if slices.Contains(names, "planner") || slices.Contains(names, "executor") {
		pc, closeCache, perr := plannerConfig(ctx, flagSources(*endpoints, *llmCache), env)
		if perr != nil {
			return perr
		}
		defer closeInto(&err, closeCache)
		pc.InlineHosts = security.inlineHosts
		pc.CacheStoreFailed = func(ctx context.Context, err error) {
			logger.WarnContext(ctx, llm.CacheStoreFailedMessage, "err", err)
		}
		deps.planner = pc
		if slices.Contains(names, "executor") && len(pc.Endpoints) > 0 {
			solve.info = func(msg string) { logger.Info(msg) }
			// Shutting down (SIGTERM: a rolling update), the Executor makes
			// no new model call, not even one queued for a concurrency slot
			// (Drain); its baselines' calls in flight are answered and
			// stored within the shutdown grace, so none is paid twice.
			bc := pc
			bc.Drain = ctx.Done()
			if deps.baseline, err = newBaseline(bc, solve, func(msg string) { logger.Warn(msg) }); err != nil {
				return err
			}
			deps.baseline.Stop, deps.baseline.StopError = ctx.Done(), errShuttingDown
		}
	}
	if needStore(names, deps) {
		st, serr := groundtruth.Open(ctx, *storeLoc)
		if serr != nil {
			return fmt.Errorf("--store: %w", serr)
		}
		defer closeInto(&err, st.Close)
		deps.store = groundtruth.Instrument(st, env.meterProvider())
	}
	srv, err := server.New(cfg, logger, tel, buildServices(names, deps))
	if err != nil {
		return err
	}
	lis, err := listenFlag("--listen", *listen)
	if err != nil {
		return err
	}
	if err := security.checkListener("--listen", lis, cfg, logger); err != nil {
		closeQuietly(lis)
		return err
	}
	if *httpListen == "" {
		return srv.Serve(ctx, lis)
	}
	defer closeQuietly(lis) // closed by Serve, unless the HTTP side fails first
	if *maxImport < int64(cfg.MaxMessageBytes) {
		return fmt.Errorf("%w: --http-max-import-bytes must be at least --max-message-bytes (%d), got %d", ErrUsage, cfg.MaxMessageBytes, *maxImport)
	}
	if *minBodyRate < 0 {
		return fmt.Errorf("%w: --http-min-body-rate must be ≥ 0, got %d", ErrUsage, *minBodyRate)
	}
	front, err := newHTTPFront(ctx, srv, cfg, *maxImport, *minBodyRate, tel)
	if err != nil {
		return err
	}
	defer closeQuietly(front.conn)
	hlis, err := listenFlag("--http-listen", *httpListen)
	if err != nil {
		return err
	}
	if err := security.checkListener("--http-listen", hlis, cfg, logger); err != nil {
		closeQuietly(hlis)
		return err
	}
	front.cfg.Logger = logger
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return srv.Serve(gctx, lis) })
	g.Go(func() error { return gateway.Serve(gctx, hlis, front.mux, front.cfg) })
	return g.Wait()
}

// flushTelemetry gives exporters a few seconds to send what they hold.
func flushTelemetry(tel *telemetry.Telemetry, warn func(string, ...any)) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := tel.Shutdown(ctx); err != nil {
		warn("telemetry flush failed", "err", err)
	}
}

// plannerConfig loads the endpoints and opens the response cache, returning
// the cache's Close; model calls read API keys and record metrics through
// env, and an answer the cache could not store is a warning on env.Stderr
// (the answer is used: llm.WithCacheStoreFailed; serve logs it instead).
func plannerConfig(ctx context.Context, src llmSources, env Env) (planner.Config, func() error, error) {
	eps, err := src.endpointsFile()
	if err != nil {
		return planner.Config{}, nil, err
	}
	cfg := planner.Config{Endpoints: eps, Getenv: env.Getenv, Now: time.Now, MeterProvider: env.meterProvider(),
		CacheStoreFailed: func(_ context.Context, err error) {
			fmt.Fprintf(env.Stderr, "warning: %v: %s\n", err, llm.CacheStoreFailedMessage)
		}}
	if src.cache == "off" || src.cache == "" {
		return cfg, func() error { return nil }, nil
	}
	open := llm.OpenCache
	if src.readCache {
		open = llm.OpenCacheToRead
	}
	cache, err := open(ctx, src.cache)
	if err != nil {
		return planner.Config{}, nil, fmt.Errorf("%s: %w", src.where("llm_cache"), err)
	}
	cfg.Cache = cache
	return cfg, cache.Close, nil
}

// errShuttingDown ends the baseline streams of a served Executor that is
// shutting down (executor.Baseline.StopError).
var errShuttingDown = &apperr.UnavailableError{Retry: true, Reason: "the executor is shutting down: the model calls it made are stored; send the rest again (to another replica, or to this one once it is back)"}

// listenFlag listens on addr, the value of flag: an address that is no
// address (a port out of range, no port) is a usage error; one the system
// refuses (in use, not this machine's) is not.
func listenFlag(flag, addr string) (net.Listener, error) {
	lis, err := net.Listen("tcp", addr)
	if err == nil {
		return lis, nil
	}
	if _, malformed := errors.AsType[*net.AddrError](err); malformed {
		return nil, fmt.Errorf("%w: %s %s: %v", ErrUsage, flag, addr, err)
	}
	return nil, fmt.Errorf("%s %s: %w", flag, addr, err)
}
