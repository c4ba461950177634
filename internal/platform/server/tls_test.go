package server_test

import (
	"context"
	"io"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/transport"
	"github.com/triage-eval/triage/internal/platform/transport/transporttest"
)

func TestTLS(t *testing.T) {
	pki := transporttest.New(t)
	other := transporttest.New(t) // an unrelated CA
	tlsFor := func(files transport.ClientFiles) grpc.DialOption {
		cfg, err := transport.ClientConfig(files)
		if err != nil {
			t.Fatal(err)
		}
		return grpc.WithTransportCredentials(credentials.NewTLS(cfg))
	}
	tests := []struct {
		name     string
		clientCA bool // the server requires client certificates
		dial     grpc.DialOption
		wantOK   bool
	}{
		{name: "TLS", dial: tlsFor(transport.ClientFiles{CA: pki.CA}), wantOK: true},
		{name: "TLS, server name from the flag", dial: tlsFor(transport.ClientFiles{CA: pki.CA, ServerName: "localhost"}), wantOK: true},
		{name: "plaintext client", dial: nil},
		{name: "unknown server CA", dial: tlsFor(transport.ClientFiles{CA: other.CA})},
		{name: "mTLS", clientCA: true, dial: tlsFor(transport.ClientFiles{CA: pki.CA, Cert: pki.ClientCert, Key: pki.ClientKey}), wantOK: true},
		{name: "mTLS without a client certificate", clientCA: true, dial: tlsFor(transport.ClientFiles{CA: pki.CA})},
		{name: "mTLS with a certificate of another CA", clientCA: true, dial: tlsFor(transport.ClientFiles{CA: pki.CA, Cert: other.ClientCert, Key: other.ClientKey})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := transport.ServerFiles{Cert: pki.ServerCert, Key: pki.ServerKey}
			if tt.clientCA {
				files.ClientCA = pki.CA
			}
			tlsCfg, err := transport.ServerConfig(files)
			if err != nil {
				t.Fatal(err)
			}
			cfg := server.DefaultConfig()
			cfg.TLS = tlsCfg
			_, svc := newProbe()
			addr := serve(t, cfg, nil, nil, svc)
			var conn *grpc.ClientConn
			if tt.dial == nil {
				conn = dial(t, addr)
			} else {
				conn = dial(t, addr, tt.dial)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // only catches a hang
			defer cancel()
			reply, err := call(ctx, conn, "hello")
			if tt.wantOK && (err != nil || reply != "echo:hello") {
				t.Errorf("call = %q, %v; want the echo", reply, err)
			}
			if !tt.wantOK && err == nil {
				t.Error("call succeeded; want a refused connection")
			}
		})
	}
}

// TestSilentConnectionIsClosed: a connection that never starts its TLS
// handshake (nor, in plaintext, its HTTP/2 preface) is closed after the
// handshake bound, not held for grpc's default two minutes.
func TestSilentConnectionIsClosed(t *testing.T) {
	_, svc := newProbe()
	cfg := server.DefaultConfig()
	cfg.Drain = 0
	cfg.HandshakeTimeout = 200 * time.Millisecond
	addr := serve(t, cfg, nil, nil, svc)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	_ = conn.SetReadDeadline(start.Add(time.Minute)) // a hang bound; grpc's default held it 120 s
	_, err = io.Copy(io.Discard, conn)
	if err != nil {
		t.Fatalf("the silent connection was not closed within a minute: %v", err)
	}
	// Far above the 200 ms asked, below the 10 s default: the bound set
	// is the one applied.
	if took := time.Since(start); took >= server.DefaultHandshakeTimeout/2 {
		t.Errorf("closed after %v: the configured bound (200 ms) was not applied", took)
	}
}
