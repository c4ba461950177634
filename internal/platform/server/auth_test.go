package server_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"

	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/platform/telemetry"
)

// serve runs services with cfg on loopback TCP until the test ends and
// returns the address. Logs go to logOut as JSON lines with trace ids.
func serve(t testing.TB, cfg server.Config, logOut io.Writer, tel *telemetry.Telemetry, services ...server.Service) string {
	t.Helper()
	if logOut == nil {
		logOut = io.Discard
	}
	if tel == nil {
		tel = telemetry.Disabled()
	}
	logger := slog.New(telemetry.LogHandler(slog.NewJSONHandler(logOut, nil)))
	srv, err := server.New(cfg, logger, tel, services)
	if err != nil {
		t.Fatal(err)
	}
	return servertest.ServeTCP(t, srv)
}

// dial connects to addr with opts (plaintext when none).
func dial(t testing.TB, addr string, opts ...grpc.DialOption) *grpc.ClientConn {
	t.Helper()
	if len(opts) == 0 {
		opts = []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	}
	conn, err := grpc.NewClient(addr, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// bearer returns ctx sending token as a bearer token.
func bearer(ctx context.Context, token string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+token)
}

const (
	probeToken = "probe-token-8c1f2e"   // may call the probe (named "probe")
	otherToken = "other-token-77aa01"   // may call the oracle only
	allToken   = "all-token-5d9e3b0042" // may call everything
)

func tokenTable(t *testing.T) *server.Tokens {
	t.Helper()
	file := server.HashToken(probeToken) + " probe prober\n" +
		server.HashToken(otherToken) + " oracle\n" +
		server.HashToken(allToken) + " *\n"
	tokens, err := server.ParseTokens("tokens.txt", strings.NewReader(file), []string{"probe", "oracle"})
	if err != nil {
		t.Fatal(err)
	}
	return tokens
}

func TestTokens(t *testing.T) {
	logs := &servertest.LogBuffer{}
	spans := tracetest.NewInMemoryExporter()
	tel := telemetry.Disabled()
	tel.TracerProvider = sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	cfg := server.DefaultConfig()
	cfg.Tokens = tokenTable(t)
	_, svc := newProbe()
	conn := dial(t, serve(t, cfg, logs, tel, svc))
	ctx := context.Background()

	tests := []struct {
		name     string
		ctx      context.Context
		wantCode codes.Code
		wantMsg  string
	}{
		{name: "no token", ctx: ctx, wantCode: codes.Unauthenticated, wantMsg: "requires a token"},
		{name: "not bearer", ctx: metadata.AppendToOutgoingContext(ctx, "authorization", "Basic "+probeToken), wantCode: codes.Unauthenticated, wantMsg: "requires a token"},
		{name: "empty bearer", ctx: metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "), wantCode: codes.Unauthenticated},
		{name: "wrong token", ctx: bearer(ctx, "wrong-"+probeToken), wantCode: codes.Unauthenticated, wantMsg: "not valid"},
		{name: "the hash as token", ctx: bearer(ctx, server.HashToken(probeToken)), wantCode: codes.Unauthenticated},
		{name: "service not granted", ctx: bearer(ctx, otherToken), wantCode: codes.PermissionDenied, wantMsg: "tokens.txt:2 may not call the probe service"},
		{name: "two tokens", ctx: bearer(bearer(ctx, probeToken), probeToken), wantCode: codes.Unauthenticated, wantMsg: `2 "authorization" metadata`},
		{name: "a valid token after an invalid one", ctx: bearer(bearer(ctx, "wrong"), allToken), wantCode: codes.Unauthenticated, wantMsg: `2 "authorization" metadata`},
		{name: "granted", ctx: bearer(ctx, probeToken), wantCode: codes.OK},
		{name: "all services", ctx: bearer(ctx, allToken), wantCode: codes.OK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reply, err := call(tt.ctx, conn, "hello")
			if status.Code(err) != tt.wantCode {
				t.Fatalf("code = %v (%v), want %v", status.Code(err), err, tt.wantCode)
			}
			if !strings.Contains(status.Convert(err).Message(), tt.wantMsg) {
				t.Errorf("message = %q, want it to contain %q", status.Convert(err).Message(), tt.wantMsg)
			}
			if tt.wantCode == codes.OK && reply != "echo:hello" {
				t.Errorf("reply = %q", reply)
			}
		})
	}

	// Health checks stay open to probes, without a token; a Watch, a
	// stream its caller holds, needs a valid token, any of them.
	resp, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{})
	if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("health without a token: %v, %v", resp, err)
	}
	for _, w := range []struct {
		name     string
		ctx      context.Context
		wantCode codes.Code
	}{
		{name: "Watch without a token", ctx: ctx, wantCode: codes.Unauthenticated},
		{name: "Watch with a token for another service", ctx: bearer(ctx, otherToken), wantCode: codes.OK},
	} {
		wctx, cancel := context.WithCancel(w.ctx)
		stream, err := healthpb.NewHealthClient(conn).Watch(wctx, &healthpb.HealthCheckRequest{})
		if err == nil {
			_, err = stream.Recv()
		}
		cancel()
		if status.Code(err) != w.wantCode {
			t.Errorf("%s: %v, want %v", w.name, err, w.wantCode)
		}
	}

	// Reflection follows the tokens: any valid token lists the services,
	// none lists nothing.
	list := func(ctx context.Context) ([]string, error) {
		stream, err := reflectionpb.NewServerReflectionClient(conn).ServerReflectionInfo(ctx)
		if err != nil {
			return nil, err
		}
		// A stream the server already ended fails Send with io.EOF; its
		// status comes from Recv (which of the two sees it first depends on
		// timing).
		if err := stream.Send(&reflectionpb.ServerReflectionRequest{MessageRequest: &reflectionpb.ServerReflectionRequest_ListServices{}}); err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		resp, err := stream.Recv()
		if err != nil {
			return nil, err
		}
		var names []string
		for _, s := range resp.GetListServicesResponse().GetService() {
			names = append(names, s.GetName())
		}
		return names, nil
	}
	if names, err := list(ctx); status.Code(err) != codes.Unauthenticated {
		t.Errorf("reflection without a token = %v, %v; want Unauthenticated", names, err)
	}
	if names, err := list(bearer(ctx, otherToken)); err != nil || !strings.Contains(strings.Join(names, " "), "triage.test.Probe") {
		t.Errorf("reflection with a valid token = %v, %v", names, err)
	}

	// The caller's token, and its hash, never reach the logs or the spans.
	secrets := []string{probeToken, otherToken, allToken, server.HashToken(probeToken), server.HashToken(otherToken), server.HashToken(allToken)}
	text := logs.String()
	if n := strings.Count(text, `"grpc.method":"Do"`); n != len(tests) {
		t.Errorf("logged %d calls of Do, want %d (one line per call)", n, len(tests))
	}
	for _, s := range secrets {
		if strings.Contains(text, s) {
			t.Errorf("the server logs contain %q:\n%s", s, text)
		}
	}
	ended := spans.GetSpans()
	if len(ended) == 0 {
		t.Fatal("no span recorded")
	}
	for _, sp := range ended {
		dump := sp.Name
		for _, a := range sp.Attributes {
			dump += " " + string(a.Key) + "=" + a.Value.String()
		}
		for _, e := range sp.Events {
			dump += " " + e.Name
			for _, a := range e.Attributes {
				dump += " " + string(a.Key) + "=" + a.Value.String()
			}
		}
		dump += " " + sp.Status.Description
		for _, s := range secrets {
			if strings.Contains(dump, s) {
				t.Errorf("span %q carries %q: %s", sp.Name, s, dump)
			}
		}
	}
}
