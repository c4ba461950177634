package server_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/metadata"

	"github.com/triage-eval/triage/internal/platform/server"
)

// TestOversizedHeadersAreRefused: a call's headers are bounded as the
// HTTP/JSON port bounds them, not by grpc-go's default of 16 MiB a call,
// which let anyone, without a token, make the server hold megabytes of
// headers per stream (40 calls of 8 MB of metadata took an Oracle from
// 58 MB to 283 MB of RSS, all of them refused Unauthenticated).
func TestOversizedHeadersAreRefused(t *testing.T) {
	_, svc := newProbe()
	cfg := server.DefaultConfig()
	cfg.Drain = 0
	conn := dial(t, serve(t, cfg, nil, nil, svc))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	// Headers of a size real callers send (a token, a traceparent, some
	// metadata) pass.
	ok := metadata.AppendToOutgoingContext(ctx, "x-some", strings.Repeat("a", 16<<10))
	if reply, err := call(ok, conn, "hello"); err != nil || reply != "echo:hello" {
		t.Fatalf("a call with 16 KiB of metadata = %q, %v; want the echo", reply, err)
	}
	// Far over the bound (server.MaxHeaderListBytes): refused, never handed to the service.
	big := metadata.AppendToOutgoingContext(ctx, "x-big", strings.Repeat("a", 1<<20))
	if reply, err := call(big, conn, "hello"); err == nil {
		t.Fatalf("a call with 1 MiB of metadata = %q; want it refused", reply)
	}
	// The connection still serves calls of a normal size.
	if reply, err := call(ctx, conn, "again"); err != nil || reply != "echo:again" {
		t.Fatalf("after the refused call = %q, %v; want the echo", reply, err)
	}
}
