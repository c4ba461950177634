package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"slices"
	"time"

	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/telemetry"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/services/planner"
)

// DefaultListen is where triage serve listens unless told otherwise.
const DefaultListen = "127.0.0.1:50051"

// DefaultStore is the embedded SQLite file used unless told otherwise.
const DefaultStore = "triage.db"

// DefaultLLMCache is the SQLite file model responses are cached in.
const DefaultLLMCache = "triage-llm-cache.db"

func runServe(ctx context.Context, args []string, env Env) error {
	def := server.DefaultConfig()
	cfg := def
	fs := newFlagSet("serve", env.Stderr)
	listen := fs.String("listen", DefaultListen, "address to listen on (host:port)")
	services := fs.String("services", "", "comma-separated services to serve (default: all: executor, oracle, planner)")
	endpoints := fs.String("endpoints", "", "JSON file of named LLM endpoints the Planner (planning) and the Executor (baselines) may use")
	var solve solveOptions
	fs.StringVar(&solve.judgeEndpoint, "judge-endpoint", "", "endpoint (in --endpoints) that judges exact answers matching cannot settle; empty for none")
	fs.StringVar(&solve.python, "python", "", "Python interpreter code problems run with (default: python3 on PATH)")
	fs.IntVar(&solve.codeConcurrency, "code-concurrency", 2, "programs run at once in the code sandbox")
	llmCache := fs.String("llm-cache", DefaultLLMCache, "SQLite file caching model responses; \"off\" disables the cache")
	storeLoc := fs.String("store", DefaultStore, "ground-truth store: a SQLite file path, sqlite:PATH, or a postgres:// URL")
	fs.IntVar(&cfg.MaxMessageBytes, "max-message-bytes", def.MaxMessageBytes, "largest message received or sent")
	fs.DurationVar(&cfg.ShutdownGrace, "shutdown-grace", def.ShutdownGrace, "time in-flight RPCs get to finish on shutdown")
	fs.DurationVar(&cfg.KeepaliveTime, "keepalive-time", def.KeepaliveTime, "ping an idle connection this often")
	fs.DurationVar(&cfg.KeepaliveTimeout, "keepalive-timeout", def.KeepaliveTimeout, "close a connection whose ping goes unanswered this long")
	logFormat := fs.String("log-format", "json", "log format: json or text")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn or error")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: triage serve [flags]\n\nEvery flag can also be set with TRIAGE_<FLAG> (e.g. TRIAGE_LISTEN);\nOpenTelemetry export is configured with the standard OTEL_* variables.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, env.Getenv, 0); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	logger, err := newLogger(env.Stderr, *logFormat, *logLevel)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	names, err := serviceNames(*services)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	tel, err := telemetry.Setup(ctx, "triage", env.Getenv)
	if err != nil {
		return err
	}
	defer flushTelemetry(tel, logger.Warn)
	deps := serviceDeps{now: time.Now}
	if slices.Contains(names, "planner") || slices.Contains(names, "executor") {
		cfg, closeCache, err := plannerConfig(ctx, *endpoints, *llmCache, env.Getenv)
		if err != nil {
			return err
		}
		defer closeCache()
		deps.planner = cfg
		if slices.Contains(names, "executor") && len(cfg.Endpoints) > 0 {
			b, err := newBaseline(cfg, solve, func(msg string) { logger.Warn(msg) })
			if err != nil {
				return err
			}
			deps.baseline = b
		}
	}
	if needStore(names) {
		st, err := store.Open(ctx, *storeLoc)
		if err != nil {
			return fmt.Errorf("--store: %w", err)
		}
		defer st.Close()
		deps.store = st
	}
	srv, err := server.New(cfg, logger, tel, buildServices(names, deps))
	if err != nil {
		return err
	}
	lis, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("--listen %s: %w", *listen, err)
	}
	return srv.Serve(ctx, lis)
}

// flushTelemetry gives exporters a few seconds to send what they hold.
func flushTelemetry(tel *telemetry.Telemetry, warn func(string, ...any)) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := tel.Shutdown(ctx); err != nil {
		warn("telemetry flush failed", "err", err)
	}
}

// plannerConfig loads the endpoints and opens the response cache.
func plannerConfig(ctx context.Context, endpointsPath, cachePath string, getenv func(string) string) (planner.Config, func(), error) {
	eps, err := loadEndpoints(endpointsPath)
	if err != nil {
		return planner.Config{}, nil, fmt.Errorf("%w: %v", ErrUsage, err)
	}
	cfg := planner.Config{Endpoints: eps, Getenv: getenv, Now: time.Now}
	if cachePath == "off" || cachePath == "" {
		return cfg, func() {}, nil
	}
	cache, err := llm.OpenCache(ctx, cachePath)
	if err != nil {
		return planner.Config{}, nil, fmt.Errorf("--llm-cache: %w", err)
	}
	cfg.Cache = cache
	return cfg, func() { cache.Close() }, nil
}
