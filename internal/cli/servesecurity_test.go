package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/transport/transporttest"
)

func TestServeSecurityUsageErrors(t *testing.T) {
	pki := transporttest.New(t)
	dir := t.TempDir()
	badTokens := filepath.Join(dir, "tokens.txt")
	os.WriteFile(badTokens, []byte("# ok\n"+server.HashToken("x")+" oracle\nnot-a-hash *\n"), 0o600)
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"certificate without key", []string{"--tls-cert", pki.ServerCert}, nil, "both a certificate and a key"},
		{"client CA alone", []string{"--tls-client-ca", pki.CA}, nil, "--tls-client-ca needs"},
		{"insecure with TLS", []string{"--insecure", "--tls-cert", pki.ServerCert, "--tls-key", pki.ServerKey}, nil, "--insecure"},
		{"missing token file", []string{"--auth-tokens", filepath.Join(dir, "nope")}, nil, "--auth-tokens"},
		{"bad token line", nil, map[string]string{"TRIAGE_AUTH_TOKENS": badTokens}, "tokens.txt:3"},
		{"bad rate", []string{"--rate-limit", "5/d"}, nil, "rate-limit"},
		{"bad inline host", []string{"--allow-inline-endpoints", "127.0.0.1:8000,http://x"}, nil, "--allow-inline-endpoints"},
		{"negative concurrency", []string{"--max-concurrent", "-1"}, nil, "--max-concurrent: must be ≥ 0, got -1"},
		{"negative burst", []string{"--burst", "-3"}, nil, "--burst: must be ≥ 0, got -3"},
		{"no code concurrency", []string{"--code-concurrency", "0"}, nil, "--code-concurrency must be ≥ 1, got 0"},
		{"judge without endpoints", []string{"--services", "executor", "--judge-endpoint", "nope"}, nil, "--judge-endpoint nope names an endpoint of --endpoints, and none is given"},
		{"port out of range", []string{"--listen", "127.0.0.1:99999"}, nil, "--listen 127.0.0.1:99999: listen tcp: address 99999: invalid port"},
		{"plaintext to the network", []string{"--listen", "0.0.0.0:0"}, nil, "--insecure"},
		{"plaintext to the network from the environment", nil, map[string]string{"TRIAGE_LISTEN": "[::]:0"}, "--insecure"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, _, _ := testEnv(tt.env)
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			err := Run(ctx, append([]string{"serve", "--services", "oracle"}, tt.args...), env)
			if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want a usage error mentioning %q", err, tt.want)
			}
		})
	}
}

func TestServeExposureWarnings(t *testing.T) {
	pki := transporttest.New(t)
	tokens := filepath.Join(t.TempDir(), "tokens")
	os.WriteFile(tokens, []byte(server.HashToken("x")+" *\n"), 0o600)
	tests := []struct {
		name  string
		args  []string
		warns []string
	}{
		{name: "loopback plaintext", args: []string{"--listen", "127.0.0.1:0"}},
		{name: "network plaintext with --insecure", args: []string{"--listen", "0.0.0.0:0", "--insecure"}, warns: []string{"serving plaintext", "anyone who reaches"}},
		{name: "network TLS without tokens", args: []string{"--listen", "0.0.0.0:0", "--tls-cert", pki.ServerCert, "--tls-key", pki.ServerKey}, warns: []string{"anyone who reaches"}},
		{name: "network TLS with tokens", args: []string{"--listen", "0.0.0.0:0", "--tls-cert", pki.ServerCert, "--tls-key", pki.ServerKey, "--auth-tokens", tokens}},
		{name: "network mutual TLS", args: []string{"--listen", "0.0.0.0:0", "--tls-cert", pki.ServerCert, "--tls-key", pki.ServerKey, "--tls-client-ca", pki.CA}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, _, logs := testEnv(nil)
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if err := Run(ctx, append([]string{"serve", "--services", "oracle"}, tt.args...), env); err != nil {
				t.Fatal(err)
			}
			got := strings.Count(logs.String(), `"level":"WARN"`)
			if got != len(tt.warns) {
				t.Errorf("%d warnings, want %d:\n%s", got, len(tt.warns), logs)
			}
			for _, w := range tt.warns {
				if !strings.Contains(logs.String(), w) {
					t.Errorf("no warning %q:\n%s", w, logs)
				}
			}
		})
	}
}

func TestRateFlag(t *testing.T) {
	for in, want := range map[string]float64{"50/s": 50, "600/m": 10, "36/h": 0.01, "12.5": 12.5, "0": 0, " 7 / s ": 7} {
		var got float64
		if err := (rateFlag{perSecond: &got}).Set(in); err != nil || got != want {
			t.Errorf("Set(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"fast", "-1/s", "5/d", "Inf"} {
		var got float64
		if err := (rateFlag{perSecond: &got}).Set(in); err == nil {
			t.Errorf("Set(%q) accepted: %v", in, got)
		}
	}
	r := 50.0
	if s := (rateFlag{perSecond: &r}).String(); s != "50/s" {
		t.Errorf("String = %q", s)
	}
}
