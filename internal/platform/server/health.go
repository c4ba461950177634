package server

import (
	"context"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// healthService is the registered grpc.health.v1 service: grpc's
// health.Server, whose Watch streams end when the server stops. grpc's
// Shutdown only sends them NOT_SERVING and leaves them open, so one watching
// probe held a graceful stop for the whole grace period.
type healthService struct {
	*health.Server
	stopping chan struct{} // closed by endWatches
	once     sync.Once
}

func newHealthService() *healthService {
	return &healthService{Server: health.NewServer(), stopping: make(chan struct{})}
}

// Watch streams the status of a service until the caller leaves or the
// server stops; then it ends with Unavailable, so the caller watches again
// elsewhere.
func (h *healthService) Watch(req *healthpb.HealthCheckRequest, stream healthpb.Health_WatchServer) error {
	ctx, cancel := context.WithCancel(stream.Context())
	defer cancel()
	go func() {
		select {
		case <-h.stopping:
			cancel()
		case <-ctx.Done():
		}
	}()
	err := h.Server.Watch(req, &watchStream{Health_WatchServer: stream, ctx: ctx})
	select {
	case <-h.stopping:
		return status.Error(codes.Unavailable, "the server is shutting down")
	default:
		return err
	}
}

// endWatches ends every Watch stream, open or still to come.
func (h *healthService) endWatches() { h.once.Do(func() { close(h.stopping) }) }

// watchStream is a Watch stream whose context also ends when the server
// stops.
type watchStream struct {
	healthpb.Health_WatchServer
	ctx context.Context
}

// Context returns the stream's context, cancelled at shutdown.
func (w *watchStream) Context() context.Context { return w.ctx }
