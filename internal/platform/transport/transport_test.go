package transport_test

import (
	"crypto/tls"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/platform/transport"
	"github.com/triage-eval/triage/internal/platform/transport/transporttest"
)

func TestLoopback(t *testing.T) {
	for target, want := range map[string]bool{
		"127.0.0.1:50051":            true,
		"127.8.9.10:1":               true,
		"[::1]:50051":                true,
		"localhost:50051":            true,
		"LOCALHOST:1":                true,
		"dns:///localhost:50051":     true,
		"passthrough:///127.0.0.1:1": true,
		"unix:///tmp/triage.sock":    true,
		"[::ffff:127.0.0.1]:1":       true,
		"10.0.0.5:50051":             false,
		"0.0.0.0:50051":              false,
		"[::]:50051":                 false,
		"example.com:443":            false,
		"localhost.evil.com:1":       false,
		"127.0.0.1.nip.io:1":         false,
		"dns:///10.1.1.1:5":          false,
		"dns://8.8.8.8/localhost:1":  true,
		"dns://127.0.0.1/example:1":  false,
	} {
		if got := transport.IsLoopbackAddr(target); got != want {
			t.Errorf("IsLoopbackAddr(%q) = %v, want %v", target, got, want)
		}
	}
	for addr, want := range map[net.Addr]bool{
		&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}: true,
		&net.TCPAddr{IP: net.IPv6loopback, Port: 1}:       true,
		&net.TCPAddr{IP: net.IPv4zero, Port: 1}:           false,
		&net.TCPAddr{IP: net.IPv6unspecified, Port: 1}:    false,
		&net.TCPAddr{IP: net.IPv4(192, 168, 1, 2)}:        false,
		&net.UnixAddr{Name: "/tmp/x", Net: "unix"}:        true,
	} {
		if got := transport.IsLoopbackListener(addr); got != want {
			t.Errorf("IsLoopbackListener(%v) = %v, want %v", addr, got, want)
		}
	}
}

func TestConfigs(t *testing.T) {
	pki := transporttest.New(t)
	srv, err := transport.ServerConfig(transport.ServerFiles{Cert: pki.ServerCert, Key: pki.ServerKey, ClientCA: pki.CA})
	if err != nil {
		t.Fatal(err)
	}
	if srv.MinVersion != tls.VersionTLS12 || srv.ClientAuth != tls.RequireAndVerifyClientCert || srv.ClientCAs == nil {
		t.Errorf("server config = min %x, client auth %v", srv.MinVersion, srv.ClientAuth)
	}
	plain, err := transport.ServerConfig(transport.ServerFiles{Cert: pki.ServerCert, Key: pki.ServerKey})
	if err != nil || plain.ClientAuth != tls.NoClientCert {
		t.Errorf("server without client CA: %v, %v", plain, err)
	}
	cli, err := transport.ClientConfig(transport.ClientFiles{CA: pki.CA, Cert: pki.ClientCert, Key: pki.ClientKey, ServerName: "localhost"})
	if err != nil || cli.MinVersion != tls.VersionTLS12 || len(cli.Certificates) != 1 || cli.ServerName != "localhost" {
		t.Errorf("client config = %v, %v", cli, err)
	}

	// A real handshake: mutual TLS succeeds with the client certificate,
	// and fails without it.
	handshake := func(cfg *tls.Config) error {
		lis, err := tls.Listen("tcp", "127.0.0.1:0", srv)
		if err != nil {
			t.Fatal(err)
		}
		defer lis.Close()
		go func() {
			c, err := lis.Accept()
			if err == nil {
				c.(*tls.Conn).Handshake()
				c.Close()
			}
		}()
		c, err := tls.Dial("tcp", lis.Addr().String(), cfg)
		if err != nil {
			return err
		}
		defer c.Close()
		// TLS 1.3 reports a refused client certificate on the first read.
		_, err = c.Read(make([]byte, 1))
		if err != nil && strings.Contains(err.Error(), "EOF") {
			return nil
		}
		return err
	}
	if err := handshake(cli); err != nil {
		t.Errorf("mutual TLS handshake: %v", err)
	}
	noCert, _ := transport.ClientConfig(transport.ClientFiles{CA: pki.CA})
	if err := handshake(noCert); err == nil {
		t.Error("a client without a certificate passed mutual TLS")
	}
	old := cli.Clone()
	old.MaxVersion = tls.VersionTLS11
	if err := handshake(old); err == nil {
		t.Error("TLS 1.1 accepted")
	}
}

func TestConfigErrors(t *testing.T) {
	pki := transporttest.New(t)
	notPEM := filepath.Join(t.TempDir(), "ca.pem")
	os.WriteFile(notPEM, []byte("hello"), 0o600)
	tests := []struct {
		name string
		err  func() error
		want string
	}{
		{"server without key", func() error {
			_, err := transport.ServerConfig(transport.ServerFiles{Cert: pki.ServerCert})
			return err
		}, "both"},
		{"server key mismatch", func() error {
			_, err := transport.ServerConfig(transport.ServerFiles{Cert: pki.ServerCert, Key: pki.ClientKey})
			return err
		}, pki.ServerCert},
		{"client CA not PEM", func() error { _, err := transport.ClientConfig(transport.ClientFiles{CA: notPEM}); return err }, "no PEM"},
		{"client CA missing", func() error {
			_, err := transport.ClientConfig(transport.ClientFiles{CA: notPEM + ".missing"})
			return err
		}, "no such file"},
		{"client cert without key", func() error {
			_, err := transport.ClientConfig(transport.ClientFiles{Cert: pki.ClientCert})
			return err
		}, "--tls-key"},
	}
	for _, tt := range tests {
		if err := tt.err(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

// TestCertificateWarning: a server's certificate out of its validity period
// (transporttest's: from an hour ago to a day ahead) is named, expired or
// not yet valid; a valid one, or none, gives no warning.
func TestCertificateWarning(t *testing.T) {
	pki := transporttest.New(t)
	cfg, err := transport.ServerConfig(transport.ServerFiles{Cert: pki.ServerCert, Key: pki.ServerKey})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for _, tc := range []struct {
		name string
		cfg  *tls.Config
		at   time.Time
		want string
	}{
		{"valid", cfg, now, ""},
		{"expired", cfg, now.Add(48 * time.Hour), "expired on"},
		{"not yet valid", cfg, now.Add(-2 * time.Hour), "is not valid before"},
		{"no TLS", nil, now, ""},
	} {
		got := transport.CertificateWarning(tc.cfg, tc.at)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
