package server

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"time"

	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/reflection"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/protoconv"
	"github.com/triage-eval/triage/internal/platform/telemetry"
	"github.com/triage-eval/triage/internal/platform/version"
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
	grpc   *grpc.Server
	health *healthService
	// admission is the tap's, which Admit applies to the HTTP/JSON
	// gateway's requests: one token rule, one count of each caller's
	// calls and one refusal budget for both ports.
	admission   *admission
	logger      *slog.Logger
	grace       time.Duration
	drainPeriod time.Duration
	// drainTimer starts the drain period's timer: time.After, replaced
	// by tests (export_test.go) to end the drain when they are done.
	drainTimer func(time.Duration) <-chan time.Time
	services   []Service
	internal   *internalListener // set by DialInternal
	// stamp is the version stamp (SPEC §10) of every response and error.
	stamp *triagev1.VersionStamp
	// hurry ends a shutdown's drain and grace (Config.Hurry).
	hurry <-chan struct{}
}

// DefaultHandshakeTimeout bounds a new connection's setup: its TLS
// handshake and the client's HTTP/2 preface. grpc's default, 120 s, let a
// client that opened connections and sent nothing hold each (a descriptor
// and a goroutine) for two minutes; the HTTP/JSON port gives a request's
// headers 10 s, and so does this one.
const DefaultHandshakeTimeout = 10 * time.Second

// MaxHeaderListBytes bounds a call's headers (HTTP/2's header list size:
// names, values and 32 bytes a field), which the server reads before its
// token is checked. grpc's default, 16 MiB a call, let a caller without a
// token make the server hold megabytes per stream; the HTTP/JSON port
// caps a request's headers at 64 KiB, and this leaves room for what the
// gateway adds to those when it forwards them.
const MaxHeaderListBytes = 128 << 10

// New builds a server for services. tel may be telemetry.Disabled().
func New(cfg Config, logger *slog.Logger, tel *telemetry.Telemetry, services []Service) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if len(services) == 0 {
		return nil, errors.New("no services to serve")
	}
	if cfg.Version == (version.Stamp{}) {
		cfg.Version = version.Current().Stamp()
	}
	stamp := protoconv.VersionStamp(cfg.Version)
	stamps := newStamper(stamp)
	admission, limiter := newAdmission(cfg, services, logger)
	admission.stamp = stamp
	guards := newGuards(cfg, limiter)
	codec := newReadingCodec()
	g := grpc.NewServer(
		grpc.Creds(serverCredentials{transportCredentials(cfg.TLS)}),
		grpc.InTapHandle(admission.admit),
		grpc.ForceServerCodecV2(codec),
		grpc.StatsHandler(stackGrowingHandler{tel.ServerHandler()}),
		grpc.ChainUnaryInterceptor(append(unaryChain(logger, guards, stamp), sendLimitUnaryInterceptor(cfg.MaxMessageBytes), stamps.unary)...),
		grpc.ChainStreamInterceptor(append(streamChain(logger, guards, stamp), readingStreamInterceptor(codec), idleStreamInterceptor, sendLimitStreamInterceptor(cfg.MaxMessageBytes), stamps.stream)...),
		grpc.MaxRecvMsgSize(cfg.MaxMessageBytes),
		grpc.MaxSendMsgSize(cfg.MaxMessageBytes),
		grpc.ConnectionTimeout(cmp.Or(cfg.HandshakeTimeout, DefaultHandshakeTimeout)),
		grpc.MaxHeaderListSize(MaxHeaderListBytes),
		grpc.KeepaliveParams(keepalive.ServerParameters{Time: cfg.KeepaliveTime, Timeout: cfg.KeepaliveTimeout, MaxConnectionAge: maxConnectionAge(cfg.MaxConnectionAge)}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: cfg.MinClientPingInterval, PermitWithoutStream: true}),
	)
	hs := newHealthService()
	seen := make(map[string]bool)
	for _, s := range services {
		if seen[s.Desc.ServiceName] {
			return nil, fmt.Errorf("service %q registered twice", s.Name)
		}
		seen[s.Desc.ServiceName] = true
		g.RegisterService(readingUnary(s.Desc, codec), s.Impl)
		hs.SetServingStatus(s.Desc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	}
	hs.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	g.RegisterService(readingUnary(&healthpb.Health_ServiceDesc, codec), hs)
	reflection.Register(g)
	admission.methods = servedMethods(g) // before any call: the tap reads it unlocked
	return &Server{grpc: g, health: hs, admission: admission, logger: logger, grace: cfg.ShutdownGrace, drainPeriod: cfg.Drain, hurry: cfg.Hurry, drainTimer: time.After, services: services, stamp: stamp}, nil
}

// Serve accepts connections on lis until ctx ends, then shuts down: health
// turns NOT_SERVING while calls are still served for the drain period, then
// Watch streams end, in-flight RPCs get the grace period to finish, and what
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
	internalServed := make(chan struct{})
	go func() {
		defer close(internalServed)
		if s.internal != nil {
			_ = s.grpc.Serve(s.internal) // ends when the server stops, as lis does
		}
	}()
	defer func() { <-internalServed }()
	select {
	case err := <-served:
		s.grpc.Stop()
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	s.stop()
	if err := <-served; err != nil && !errors.Is(err, grpc.ErrServerStopped) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// stop drains, ends health watches and stops gracefully within the grace
// period, then hard.
func (s *Server) stop() {
	s.drain()
	s.health.endWatches()
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
	case <-s.hurry:
		s.logger.Warn("asked again to stop; cutting off in-flight RPCs")
		s.grpc.Stop()
		<-done
	}
}

// maxConnectionAge is Config.MaxConnectionAge as grpc takes it: 0 there
// means grpc's own default, for ever (math.MaxInt64).
func maxConnectionAge(d time.Duration) time.Duration {
	if d == 0 {
		return math.MaxInt64
	}
	return d
}
