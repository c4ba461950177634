package deploy

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"
)

// composeServices are compose.yaml's TRIAGE services, by the --services
// each serves, with the image target each builds.
var composeServices = map[string]string{"oracle": serviceStage, "executor": executorStage, "planner": serviceStage, "scoring": serviceStage}

// sandboxSecurityOpts are the Executor's exceptions for its sandbox in
// Docker (deploy/README.md, "What the Executor's sandbox needs").
var sandboxSecurityOpts = []string{"seccomp=unconfined", "apparmor=unconfined", "systempaths=unconfined"}

// loadCompose loads compose.yaml with the Compose specification's loader,
// which validates it against the specification's JSON schema.
func loadCompose(t *testing.T) *types.Project {
	t.Helper()
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	details := types.ConfigDetails{
		WorkingDir:  abs,
		ConfigFiles: []types.ConfigFile{{Filename: filepath.Join(abs, "compose.yaml")}},
		Environment: types.Mapping{},
	}
	p, err := loader.LoadWithContext(context.Background(), details)
	if err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	return p
}

// TestCompose: the four services and PostgreSQL 15; each TRIAGE service
// non-root, read-only, without capabilities, serving TLS with tokens from
// secrets, health-checked by grpc_health_probe over that TLS for its own
// service name, published on the loopback only; the Executor and Planner on
// the shared PostgreSQL once it is healthy; the sandbox's exceptions on the
// Executor alone; Scoring calling the Oracle and the Executor by their
// Compose names over verified TLS with a token of its own, once they are
// healthy.
func TestCompose(t *testing.T) {
	p := loadCompose(t)
	want := append(slices.Sorted(maps.Keys(composeServices)), "postgres")
	slices.Sort(want)
	if got := slices.Sorted(maps.Keys(p.Services)); !slices.Equal(got, want) {
		t.Fatalf("services %v, want %v", got, want)
	}
	pg := p.Services["postgres"]
	if pg.Image != "postgres:15" || pg.HealthCheck == nil {
		t.Errorf("postgres: image %q, health check %v; want postgres:15 with a health check", pg.Image, pg.HealthCheck)
	}
	abs, _ := filepath.Abs(root)
	for name, target := range composeServices {
		s := p.Services[name]
		if s.User != nonRootUser || !s.ReadOnly || !slices.Contains(s.CapDrop, "ALL") || !slices.Contains(s.Tmpfs, "/tmp") {
			t.Errorf("%s: user %q, read_only %v, cap_drop %v, tmpfs %v: want %s, true, ALL, /tmp", name, s.User, s.ReadOnly, s.CapDrop, s.Tmpfs, nonRootUser)
		}
		if s.Build == nil || s.Build.Context != abs || s.Build.Target != target {
			t.Errorf("%s: build %+v, want the repository, target %s", name, s.Build, target)
		}
		extra := slices.DeleteFunc(slices.Clone(s.SecurityOpt), func(o string) bool { return o == "no-new-privileges:true" })
		if len(extra) == len(s.SecurityOpt) {
			t.Errorf("%s: security_opt lacks no-new-privileges:true", name)
		}
		if name == sandboxExceptions.component {
			slices.Sort(extra)
			if wantOpts := slices.Sorted(slices.Values(sandboxSecurityOpts)); !slices.Equal(extra, wantOpts) {
				t.Errorf("%s: security_opt exceptions %v, want %v", name, extra, wantOpts)
			}
		} else if len(extra) > 0 {
			t.Errorf("%s: security_opt %v: only the Executor's sandbox has exceptions", name, extra)
		}
		mounted := map[string]bool{} // the files the secrets appear as
		for _, sec := range s.Secrets {
			target := sec.Target
			if target == "" {
				target = "/run/secrets/" + sec.Source
			}
			mounted[target] = true
		}
		args := []string(s.Command)
		if len(args) == 0 || args[0] != "serve" {
			t.Errorf("%s: command %q, want serve", name, args)
			continue
		}
		if v, _ := flagValue(args, "services"); v != name {
			t.Errorf("%s: --services=%s", name, v)
		}
		for _, f := range []string{"tls-cert", "tls-key", "auth-tokens"} {
			if _, ok := flagValue(args, f); !ok {
				t.Errorf("%s: no --%s", name, f)
			}
		}
		usesPostgres := false
		for _, a := range args {
			_, v, _ := strings.Cut(a, "=")
			if strings.HasPrefix(v, "/run/secrets/") && !mounted[v] {
				t.Errorf("%s: %s, but no secret is mounted there", name, a)
			}
			if strings.Contains(a, "postgres") {
				usesPostgres = true
				if v != "postgres:///" {
					t.Errorf("%s: %s: want postgres:/// and the PG* variables", name, a)
				}
			}
		}
		if usesPostgres {
			env := s.Environment
			if env["PGHOST"] == nil || *env["PGHOST"] != "postgres" || env["PGPASSFILE"] == nil || !mounted[*env["PGPASSFILE"]] {
				t.Errorf("%s: on PostgreSQL without PGHOST=postgres and PGPASSFILE from a secret", name)
			}
			if d, ok := s.DependsOn["postgres"]; !ok || d.Condition != types.ServiceConditionHealthy {
				t.Errorf("%s: uses PostgreSQL but does not wait for it to be healthy", name)
			}
		}
		if name == "scoring" {
			for flag, upstream := range map[string]string{"oracle-addr": "oracle", "executor-addr": "executor"} {
				if v, _ := flagValue(args, flag); v != upstream+":50051" {
					t.Errorf("%s: --%s=%s, want %s:50051", name, flag, v, upstream)
				}
				if d, ok := s.DependsOn[upstream]; !ok || d.Condition != types.ServiceConditionHealthy {
					t.Errorf("%s: does not wait for %s to be healthy", name, upstream)
				}
			}
			if v, _ := flagValue(args, "upstream-ca"); v != "/run/secrets/tls_ca" {
				t.Errorf("%s: --upstream-ca=%s, want the CA /run/secrets/tls_ca", name, v)
			}
			if v, _ := flagValue(args, "upstream-token-file"); v != "/run/secrets/scoring_token" {
				t.Errorf("%s: --upstream-token-file=%s, want its own token /run/secrets/scoring_token", name, v)
			}
		}
		hc := s.HealthCheck
		wantHC := []string{"CMD", "/usr/local/bin/grpc_health_probe", "-addr=localhost:50051", "-tls", "-tls-ca-cert=/run/secrets/tls_ca", "-service=" + healthService[name]}
		if hc == nil || !slices.Equal([]string(hc.Test), wantHC) {
			t.Errorf("%s: healthcheck %v, want %q", name, hc, wantHC)
		} else if !mounted["/run/secrets/tls_ca"] {
			t.Errorf("%s: the health check reads tls_ca, which is not mounted", name)
		}
		// gRPC on 50051 and HTTP/JSON on 8080, each published on the
		// host's loopback only.
		wantTargets := map[uint32]bool{50051: true}
		if v, ok := flagValue(args, "http-listen"); ok {
			if v != ":8080" {
				t.Errorf("%s: --http-listen=%s, want :8080", name, v)
			}
			wantTargets[8080] = true
		}
		published := map[uint32]bool{}
		for _, port := range s.Ports {
			if port.HostIP != "127.0.0.1" || !wantTargets[port.Target] {
				t.Errorf("%s: port %+v: publish 50051 (and 8080 with --http-listen) on 127.0.0.1 only", name, port)
			}
			published[port.Target] = true
		}
		for target := range wantTargets {
			if !published[target] {
				t.Errorf("%s: port %d is not published", name, target)
			}
		}
	}
	for name, sec := range p.Secrets {
		if rel, err := filepath.Rel(abs, sec.File); err != nil || filepath.Dir(rel) != "deploy/compose/secrets" {
			t.Errorf("secret %s: file %s; make-secrets.sh writes deploy/compose/secrets/", name, sec.File)
		}
	}
}

// TestComposeSecrets runs make-secrets.sh and checks that it writes every
// file compose.yaml's secrets read: a certificate the CA verifies for every
// name the services are dialled by, a token file holding the token's
// SHA-256, the pgpass line of the PostgreSQL password, and that a second run
// changes nothing.
func TestComposeSecrets(t *testing.T) {
	lookPath(t, "openssl")
	dir := filepath.Join(t.TempDir(), "secrets")
	run := func() map[string][]byte {
		out, err := exec.Command("sh", filepath.Join(root, "deploy/compose/make-secrets.sh"), dir).CombinedOutput()
		if err != nil {
			t.Fatalf("make-secrets.sh: %v\n%s", err, out)
		}
		files := map[string][]byte{}
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			files[e.Name()], _ = os.ReadFile(filepath.Join(dir, e.Name()))
		}
		return files
	}
	files := run()
	for name, sec := range loadCompose(t).Secrets {
		if _, ok := files[filepath.Base(sec.File)]; !ok {
			t.Errorf("secret %s: make-secrets.sh writes no %s", name, filepath.Base(sec.File))
		}
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the secrets directory must be 0700: %v %v", fi.Mode(), err)
	}
	for _, f := range []string{"ca.key", "token"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s must be 0600 (no container reads it)", f)
		}
	}

	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(files["ca.crt"]) {
		t.Fatal("ca.crt holds no certificate")
	}
	block, _ := pem.Decode(files["server.crt"])
	if block == nil {
		t.Fatal("server.crt holds no PEM block")
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"oracle", "executor", "planner", "scoring", "localhost", "127.0.0.1"} {
		if _, err := cert.Verify(x509.VerifyOptions{DNSName: name, Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}); err != nil {
			t.Errorf("server.crt for %s: %v", name, err)
		}
	}
	sum := sha256.Sum256(bytes.TrimSpace(files["token"]))
	if fields := strings.Fields(string(files["auth-tokens"])); len(fields) < 2 || fields[0] != hex.EncodeToString(sum[:]) || fields[1] != "*" {
		t.Errorf("auth-tokens %q: want the token's SHA-256 and *", files["auth-tokens"])
	}
	scoringSum := sha256.Sum256(bytes.TrimSpace(files["scoring-token"]))
	if !strings.Contains(string(files["auth-tokens"]), "\n"+hex.EncodeToString(scoringSum[:])+" oracle,executor ") {
		t.Errorf("auth-tokens %q: want scoring-token's SHA-256 granted oracle,executor", files["auth-tokens"])
	}
	if want := "*:*:*:triage:" + string(bytes.TrimSpace(files["pg-password"])) + "\n"; string(files["pgpass"]) != want {
		t.Errorf("pgpass %q does not hold pg-password for user triage", files["pgpass"])
	}
	if !json.Valid(files["endpoints.json"]) {
		t.Errorf("endpoints.json is not JSON: %q", files["endpoints.json"])
	}
	if again := run(); !maps.EqualFunc(files, again, bytes.Equal) {
		t.Error("a second run of make-secrets.sh changed files")
	}
}
