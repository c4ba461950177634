package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"time"

	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc/filters"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/reflection"

	"github.com/triage-eval/triage/internal/platform/telemetry"
)

// Service is one gRPC service a Server can register.
type Service struct {
	// Name is the short name operators use to pick it, e.g. "oracle".
	Name string
	// Desc is the generated service descriptor.
	Desc *grpc.ServiceDesc
	// Impl implements the service; it may also implement RequestValidator.
	Impl any
}

// Server is a gRPC server with health, reflection and the shared middleware.
type Server struct {
	grpc     *grpc.Server
	health   *health.Server
	logger   *slog.Logger
	grace    time.Duration
	services []Service
}

// New builds a server for services. tel may be telemetry.Disabled().
func New(cfg Config, logger *slog.Logger, tel *telemetry.Telemetry, services []Service) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if len(services) == 0 {
		return nil, errors.New("no services to serve")
	}
	g := grpc.NewServer(
		grpc.StatsHandler(otelgrpc.NewServerHandler(
			otelgrpc.WithTracerProvider(tel.TracerProvider),
			otelgrpc.WithMeterProvider(tel.MeterProvider),
			otelgrpc.WithPropagators(tel.Propagator),
			otelgrpc.WithFilter(filters.Not(filters.HealthCheck())),
		)),
		grpc.ChainUnaryInterceptor(unaryChain(logger)...),
		grpc.ChainStreamInterceptor(streamChain(logger)...),
		grpc.MaxRecvMsgSize(cfg.MaxMessageBytes),
		grpc.MaxSendMsgSize(cfg.MaxMessageBytes),
		grpc.KeepaliveParams(keepalive.ServerParameters{Time: cfg.KeepaliveTime, Timeout: cfg.KeepaliveTimeout}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: cfg.MinClientPingInterval, PermitWithoutStream: true}),
	)
	hs := health.NewServer()
	seen := make(map[string]bool)
	for _, s := range services {
		if seen[s.Desc.ServiceName] {
			return nil, fmt.Errorf("service %q registered twice", s.Name)
		}
		seen[s.Desc.ServiceName] = true
		g.RegisterService(s.Desc, s.Impl)
		hs.SetServingStatus(s.Desc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	}
	hs.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(g, hs)
	reflection.Register(g)
	return &Server{grpc: g, health: hs, logger: logger, grace: cfg.ShutdownGrace, services: services}, nil
}

// Serve accepts connections on lis until ctx ends, then shuts down: health
// turns NOT_SERVING, in-flight RPCs get the grace period to finish, and what
// is still running after it is cut off. It returns nil after a shutdown that
// ctx asked for.
func (s *Server) Serve(ctx context.Context, lis net.Listener) error {
	names := make([]string, len(s.services))
	for i, svc := range s.services {
		names[i] = svc.Name
	}
	s.logger.InfoContext(ctx, "serving", "addr", lis.Addr().String(), "services", names)
	served := make(chan error, 1)
	go func() { served <- s.grpc.Serve(lis) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	s.stop()
	if err := <-served; err != nil && !errors.Is(err, grpc.ErrServerStopped) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// stop flips health to NOT_SERVING and stops gracefully within the grace
// period, then hard.
func (s *Server) stop() {
	s.health.Shutdown()
	s.logger.Info("shutting down", "grace", s.grace.String())
	done := make(chan struct{})
	go func() {
		s.grpc.GracefulStop()
		close(done)
	}()
	timer := time.NewTimer(s.grace)
	defer timer.Stop()
	select {
	case <-done:
		s.logger.Info("stopped gracefully")
	case <-timer.C:
		s.logger.Warn("grace period over; cutting off in-flight RPCs")
		s.grpc.Stop()
		<-done
	}
}
