package inproc

import (
	"context"
	"errors"
	"log/slog"
	"net"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/telemetry"
)

// bufferBytes is the in-memory connection's buffer size.
const bufferBytes = 1 << 20

// Conn is a client connection to in-process services.
type Conn struct {
	*grpc.ClientConn
	cancel context.CancelFunc
	served <-chan error
}

// Start serves services in process and returns a connection to them,
// instrumented with tel like the servers (so calls carry the caller's trace
// context). No probe watches an in-process server, so it stops without
// draining.
func Start(cfg server.Config, logger *slog.Logger, tel *telemetry.Telemetry, services []server.Service) (*Conn, error) {
	cfg.Drain = 0
	srv, err := server.New(cfg, logger, tel, services)
	if err != nil {
		return nil, err
	}
	lis := bufconn.Listen(bufferBytes)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, lis) }()
	cc, err := grpc.NewClient("passthrough:///inproc",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(cfg.MaxMessageBytes), grpc.MaxCallSendMsgSize(cfg.MaxMessageBytes)),
		tel.ClientOption(),
	)
	if err != nil {
		cancel()
		return nil, errors.Join(err, <-served)
	}
	return &Conn{ClientConn: cc, cancel: cancel, served: served}, nil
}

// Close closes the connection and stops the services gracefully.
func (c *Conn) Close() error {
	err := c.ClientConn.Close()
	c.cancel()
	return errors.Join(err, <-c.served)
}
