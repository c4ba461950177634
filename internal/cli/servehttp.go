package cli

import (
	"context"
	"errors"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc"

	"github.com/triage-eval/triage/internal/platform/gateway"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/telemetry"
)

// defaultMaxImportBytes caps an HTTP ground-truth import's body: far above
// any benchmark's ground truth (the paper's is a few MB), and small enough
// that the JSON decoder, which holds one message at a time and may hold a
// whole oversized one before the gRPC limit refuses it, stays bounded.
// Larger imports go over gRPC (triage ground-truth import) or in parts.
const defaultMaxImportBytes = 64 << 20

// defaultMinBodyRate is the slowest an HTTP request body may arrive, in
// bytes a second, once the idle bound has passed: 64 KiB/s (512 kbit/s)
// takes a 64 MiB import 17 minutes, and a client trickling a body slower
// loses its call instead of holding it, and its caller's concurrency slot,
// for hours. A message of an import must still arrive whole within the
// idle bound, as over gRPC.
const defaultMinBodyRate = 64 << 10

// httpFront is triage serve's HTTP/JSON gateway: a grpc-gateway mux whose
// calls reach the gRPC server over memory, and the bounds of the HTTP
// server that serves it.
type httpFront struct {
	conn *grpc.ClientConn
	mux  *runtime.ServeMux
	cfg  gateway.ServerConfig
}

// newHTTPFront connects the gateway to srv in memory: calls pass srv's
// interceptors (tokens from the Authorization header, limits, validation,
// logging) exactly as gRPC calls do, while the HTTP listener applies the
// same TLS configuration, client certificates included. srv's token rule,
// and its caller's limit on calls admitted, are applied to each request's
// headers before its body is read (srv.Admit), what the gateway answers
// itself is logged as a call is (srv.LogAnswered), and a
// body must arrive at minBodyRate bytes a second once the idle bound has
// passed (no minimum without an idle bound).
func newHTTPFront(ctx context.Context, srv *server.Server, cfg server.Config, maxImport, minBodyRate int64, tel *telemetry.Telemetry) (*httpFront, error) {
	conn, err := srv.DialInternal(tel.ClientOption(),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(cfg.MaxMessageBytes), grpc.MaxCallSendMsgSize(cfg.MaxMessageBytes)))
	if err != nil {
		return nil, err
	}
	mux, err := gateway.New(ctx, conn, gateway.Options{Admit: srv.Admit, Log: srv.LogAnswered})
	if err != nil {
		return nil, errors.Join(err, conn.Close())
	}
	if cfg.Deadlines.Idle == 0 {
		minBodyRate = 0 // no idle bound: no grace to count the rate from
	}
	return &httpFront{conn: conn, mux: mux, cfg: gateway.ServerConfig{
		TLS:             cfg.TLS,
		MaxBodyBytes:    int64(cfg.MaxMessageBytes),
		MaxImportBytes:  maxImport,
		ErrorDetail:     srv.Stamp(),
		CallTimeout:     cfg.Deadlines.Default,
		LongCallTimeout: cfg.Deadlines.Long,
		MinBodyRate:     minBodyRate,
		BodyGrace:       cfg.Deadlines.Idle,
		Drain:           cfg.Drain,
		Grace:           cfg.ShutdownGrace,
		Hurry:           cfg.Hurry,
	}}, nil
}
