package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/platform/transport/transporttest"
)

func TestDialOptions(t *testing.T) {
	pki := transporttest.New(t)
	tokenFile := filepath.Join(t.TempDir(), "token")
	os.WriteFile(tokenFile, []byte("s3cret-from-file\n"), 0o600)
	empty := filepath.Join(t.TempDir(), "empty")
	os.WriteFile(empty, []byte("\n"), 0o600)
	control := filepath.Join(t.TempDir(), "control")
	os.WriteFile(control, []byte("t1\x01rest-of-the-secret\n"), 0o600)

	tests := []struct {
		name      string
		args      []string
		env       map[string]string
		addr      string
		wantToken string // the bearer token sent, "" for none
		wantTLS   bool
		wantErr   string
	}{
		{name: "plaintext loopback", addr: "127.0.0.1:50051"},
		{name: "token over plaintext loopback", args: []string{"--token", "t1"}, addr: "localhost:50051", wantToken: "t1"},
		{name: "token from the environment", env: map[string]string{"TRIAGE_TOKEN": "t2"}, addr: "[::1]:1", wantToken: "t2"},
		{name: "token file", args: []string{"--token-file", tokenFile}, addr: "127.0.0.1:1", wantToken: "s3cret-from-file"},
		{name: "token over plaintext to the network", args: []string{"--token", "t1"}, addr: "10.0.0.5:50051", wantErr: "refusing to send the token in plaintext to 10.0.0.5:50051"},
		{name: "token over plaintext to a name", env: map[string]string{"TRIAGE_TOKEN": "t1"}, addr: "triage.internal:443", wantErr: "refusing"},
		{name: "token over TLS", args: []string{"--tls-ca", pki.CA, "--token", "t1"}, addr: "10.0.0.5:50051", wantToken: "t1", wantTLS: true},
		{name: "TLS from the environment", env: map[string]string{"TRIAGE_TLS_CA": pki.CA, "TRIAGE_TOKEN": "t3"}, addr: "example.com:443", wantToken: "t3", wantTLS: true},
		{name: "system CAs", args: []string{"--tls"}, addr: "example.com:443", wantTLS: true},
		{name: "mutual TLS", args: []string{"--tls-ca", pki.CA, "--tls-cert", pki.ClientCert, "--tls-key", pki.ClientKey}, addr: "example.com:443", wantTLS: true},
		{name: "certificate without key", args: []string{"--tls-cert", pki.ClientCert}, addr: "example.com:443", wantErr: "--tls-key"},
		{name: "both token flags", args: []string{"--token", "a", "--token-file", tokenFile}, addr: "127.0.0.1:1", wantErr: "not both"},
		{name: "empty token file", args: []string{"--token-file", empty}, addr: "127.0.0.1:1", wantErr: "empty"},
		{name: "control character in the token file", args: []string{"--token-file", control}, addr: "127.0.0.1:1", wantErr: "--token-file: the token holds a character no header may carry (a control character or non-ASCII, at byte 2); the token is not shown"},
		{name: "non-ASCII token", env: map[string]string{"TRIAGE_TOKEN": "t1é"}, addr: "127.0.0.1:1", wantErr: "--token: the token holds a character no header may carry"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := newFlagSet("test", nil)
			d := addDialFlags(fs)
			if _, err := parseFlags(fs, tt.args, func(k string) string { return tt.env[k] }, 0); err != nil {
				t.Fatal(err)
			}
			opts, err := d.options(tt.addr)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				if strings.Contains(err.Error(), "t1") {
					t.Errorf("the error quotes the token: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(opts) == 0 {
				t.Fatal("no dial options")
			}
			if d.usesTLS() != tt.wantTLS {
				t.Errorf("TLS = %v, want %v", d.usesTLS(), tt.wantTLS)
			}
			token, _ := d.bearerToken()
			if token != tt.wantToken {
				t.Errorf("token = %q, want %q", token, tt.wantToken)
			}
			if token != "" {
				creds := bearerCredentials{token: token, secure: d.usesTLS()}
				md, _ := creds.GetRequestMetadata(context.Background())
				if md["authorization"] != "Bearer "+tt.wantToken || creds.RequireTransportSecurity() != tt.wantTLS {
					t.Errorf("metadata = %v, require TLS %v", md, creds.RequireTransportSecurity())
				}
			}
		})
	}
	if opts, err := (*dialFlags)(nil).options("10.0.0.1:1"); err != nil || len(opts) != 1 {
		t.Errorf("nil dial flags = %v, %v; want plaintext", opts, err)
	}
}

// TestPlaintextTokenNeedsTheOptIn: a token goes without TLS to an address
// that is not loopback only when the operator said so
// (--upstream-plaintext-token sets plaintextToken).
func TestPlaintextTokenNeedsTheOptIn(t *testing.T) {
	for _, allow := range []bool{false, true} {
		d := &dialFlags{token: "t1", plaintextToken: allow}
		_, err := d.options("triage-oracle:50051")
		if allow && err != nil {
			t.Errorf("with the opt-in: %v", err)
		}
		if !allow && (err == nil || !strings.Contains(err.Error(), "refusing to send the token in plaintext")) {
			t.Errorf("without the opt-in: %v, want a refusal", err)
		}
	}
}
