package server_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/platform/telemetry"
	"github.com/triage-eval/triage/internal/platform/transport"
	"github.com/triage-eval/triage/internal/platform/transport/transporttest"
)

// TestDialInternal: a connection made in memory skips the TLS handshake
// (client certificates included) but not the interceptors, and the network
// listener keeps requiring TLS.
func TestDialInternal(t *testing.T) {
	pki := transporttest.New(t)
	tlsCfg, err := transport.ServerConfig(transport.ServerFiles{Cert: pki.ServerCert, Key: pki.ServerKey, ClientCA: pki.CA})
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte("internal-token"))
	tokens, err := server.ParseTokens("tokens", strings.NewReader(hex.EncodeToString(sum[:])+" probe\n"), []string{"probe"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := server.DefaultConfig()
	cfg.TLS, cfg.Tokens, cfg.Drain = tlsCfg, tokens, 0
	_, svc := newProbe()
	srv, err := server.New(cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)), telemetry.Disabled(), []server.Service{svc})
	if err != nil {
		t.Fatal(err)
	}
	internal, err := srv.DialInternal()
	if err != nil {
		t.Fatal(err)
	}
	defer internal.Close()
	addr := servertest.ServeTCP(t, srv)

	callCtx, callCancel := context.WithTimeout(context.Background(), time.Minute) // only catches a hang
	defer callCancel()
	if _, err := call(callCtx, internal, "hello"); status.Code(err) != codes.Unauthenticated {
		t.Errorf("internal call without a token: %v, want Unauthenticated", err)
	}
	withToken := metadata.AppendToOutgoingContext(callCtx, "authorization", "Bearer internal-token")
	if reply, err := call(withToken, internal, "hello"); err != nil || reply != "echo:hello" {
		t.Errorf("internal call with the token = %q, %v; want the echo", reply, err)
	}
	if _, err := call(withToken, internal, "invalid"); status.Code(err) != codes.InvalidArgument {
		t.Errorf("internal call of an invalid request: %v, want InvalidArgument from validation", err)
	}
	if _, err := call(withToken, dial(t, addr), "hello"); status.Code(err) != codes.Unavailable {
		t.Errorf("plaintext network call to the TLS listener: %v, want a refused connection", err)
	}
}
