package deploy

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// TestServeManifests starts `triage serve` with each Deployment's arguments
// (plaintext and TLS) and each Compose service's command, waits until its
// own probes pass — the kubelet's gRPC probe as grpc_health_probe
// plaintext, the exec probes and Compose's health checks as written — then
// stops it with SIGTERM, as Kubernetes and Compose do, and wants it gone
// within the grace period they give it. Where a Deployment or a Compose
// service also serves HTTP/JSON (--http-listen), GET /healthz must answer
// 200 there too, over TLS verified against the CA when it serves TLS.
func TestServeManifests(t *testing.T) {
	bins := buildImageBinaries(t)
	bin, probe := filepath.Join(bins, "triage"), filepath.Join(bins, "grpc_health_probe")
	help, _ := exec.Command(bin, "serve", "-h").CombinedOutput()
	all := buildAll(t)
	var missing []string
	for _, dir := range []string{"base", "overlays/example-tls"} {
		for _, d := range all[dir].deployments {
			missing = append(missing, unknownFlags(string(help), d.Spec.Template.Spec.Containers[0].Args)...)
		}
	}
	for _, s := range loadCompose(t).Services {
		if len(s.Command) > 0 && s.Command[0] == "serve" {
			missing = append(missing, unknownFlags(string(help), s.Command)...)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		t.Fatalf("the manifests give triage serve flags it does not have: %v", slices.Compact(missing))
	}
	pg := pgEnv(t)
	token := "deploy-test-token"
	sum := sha256.Sum256([]byte(token))
	tlsFiles := testCertificates(t, []string{"triage-oracle", "triage-planner", "triage-executor", "oracle", "planner", "executor", "localhost"})
	endpoints := `{"stub": {"base_url": "http://127.0.0.1:9/v1", "model": "stub", "mode": "standard"}}`
	secrets := map[string]map[string]string{
		"triage-auth":      {"tokens": hex.EncodeToString(sum[:]) + " * deploy-test\n"},
		"triage-endpoints": {"endpoints.json": endpoints},
		"triage-tls":       tlsFiles,
	}

	for _, dir := range []string{"base", "overlays/example-tls"} {
		for _, d := range all[dir].deployments {
			t.Run(dir+"/"+d.Name, func(t *testing.T) {
				spec := d.Spec.Template.Spec
				c := spec.Containers[0]
				port, httpPort := freePort(t), freePort(t)
				run := materialize(t, t.TempDir(), spec, c, nil, secrets, nil)
				args := relisten(run.args, port, httpPort)
				var probes [][]string
				for _, pr := range []*corev1.Probe{c.StartupProbe, c.ReadinessProbe, c.LivenessProbe} {
					switch {
					case pr.GRPC != nil:
						probes = append(probes, []string{probe, fmt.Sprintf("-addr=127.0.0.1:%d", port), "-service=" + *pr.GRPC.Service})
					case pr.Exec != nil:
						cmd := []string{probe}
						for _, a := range pr.Exec.Command[1:] {
							cmd = append(cmd, remount(strings.Replace(a, ":50051", ":"+strconv.Itoa(port), 1), c.VolumeMounts, run.dir))
						}
						probes = append(probes, cmd)
					}
				}
				if _, ok := flagValue(args, "http-listen"); ok {
					_, tls := flagValue(args, "tls-cert")
					probes = append(probes, httpHealthProbe(t, httpPort, tls, tlsFiles["ca.crt"]))
				}
				grace := time.Duration(*spec.TerminationGracePeriodSeconds) * time.Second
				serveAndProbe(t, bin, args, append(pg, run.env...), probes, grace)
			})
		}
	}

	composeSecrets := filepath.Join(t.TempDir(), "secrets")
	if out, err := exec.Command("sh", filepath.Join(root, "deploy/compose/make-secrets.sh"), composeSecrets).CombinedOutput(); err != nil {
		t.Fatalf("make-secrets.sh: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(composeSecrets, "endpoints.json"), []byte(endpoints), 0o644); err != nil {
		t.Fatal(err)
	}
	p := loadCompose(t)
	for name := range composeServices {
		s := p.Services[name]
		t.Run("compose/"+name, func(t *testing.T) {
			files := map[string]string{}
			for sec, cfg := range p.Secrets {
				files["/run/secrets/"+sec] = filepath.Join(composeSecrets, filepath.Base(cfg.File))
			}
			fromSecrets := func(a string) string {
				for from, to := range files {
					a = strings.ReplaceAll(a, from, to)
				}
				return a
			}
			port := freePort(t)
			var args []string
			for _, a := range s.Command {
				args = append(args, fromSecrets(a))
			}
			httpPort := freePort(t)
			args = relisten(args, port, httpPort)
			hc := []string{probe}
			for _, a := range s.HealthCheck.Test[2:] { // after CMD and the probe's path in the image
				hc = append(hc, fromSecrets(strings.Replace(a, ":50051", ":"+strconv.Itoa(port), 1)))
			}
			probes := [][]string{hc}
			if _, ok := flagValue(args, "http-listen"); ok {
				ca, err := os.ReadFile(filepath.Join(composeSecrets, "ca.crt"))
				if err != nil {
					t.Fatal(err)
				}
				_, tls := flagValue(args, "tls-cert")
				probes = append(probes, httpHealthProbe(t, httpPort, tls, string(ca)))
			}
			// The server is on the test's PostgreSQL, not the Compose one.
			serveAndProbe(t, bin, args, pg, probes, time.Duration(*s.StopGracePeriod))
		})
	}
}

// unknownFlags returns the --flags of args that help does not list.
func unknownFlags(help string, args []string) []string {
	var out []string
	for _, a := range args {
		name, ok := strings.CutPrefix(a, "--")
		if !ok {
			continue
		}
		name, _, _ = strings.Cut(name, "=")
		if !regexp.MustCompile(`(?m)^\s+-` + regexp.QuoteMeta(name) + `\b`).MatchString(help) {
			out = append(out, "--"+name)
		}
	}
	return out
}

// relisten moves --listen to the loopback at port, and --http-listen to
// the loopback at httpPort: the test runs many servers on one machine.
func relisten(args []string, port, httpPort int) []string {
	out := slices.Clone(args)
	for i, a := range out {
		switch {
		case strings.HasPrefix(a, "--listen="):
			out[i] = fmt.Sprintf("--listen=127.0.0.1:%d", port)
		case strings.HasPrefix(a, "--http-listen="):
			out[i] = fmt.Sprintf("--http-listen=127.0.0.1:%d", httpPort)
		}
	}
	return out
}

// httpHealthProbe is a probe command: curl GETs /healthz on the loopback
// at port, over TLS verified against caPEM (as the name localhost) when
// tls, and passes on 200.
func httpHealthProbe(t *testing.T, port int, tls bool, caPEM string) []string {
	t.Helper()
	cmd := []string{lookPath(t, "curl"), "-fsS", "--max-time", "3"}
	if !tls {
		return append(cmd, fmt.Sprintf("http://127.0.0.1:%d/healthz", port))
	}
	ca := filepath.Join(t.TempDir(), "ca.crt")
	if err := os.WriteFile(ca, []byte(caPEM), 0o600); err != nil {
		t.Fatal(err)
	}
	return append(cmd, "--cacert", ca, fmt.Sprintf("https://localhost:%d/healthz", port))
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// serveAndProbe starts the server, waits until every probe passes, then
// sends SIGTERM and wants the server to exit cleanly within grace.
func serveAndProbe(t *testing.T, bin string, args, env []string, probes [][]string, grace time.Duration) {
	t.Helper()
	var log strings.Builder
	cmd := exec.Command(bin, args...)
	cmd.Env = append(append(os.Environ(), env...), "HOME="+t.TempDir())
	cmd.Dir = t.TempDir() // the containers' working directory, /tmp
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	defer func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			<-done
		}
	}()
	for _, pr := range probes {
		deadline := time.Now().Add(2 * time.Minute) // only catches a hang
		for {
			out, err := exec.Command(pr[0], pr[1:]...).CombinedOutput()
			if err == nil {
				break
			}
			select {
			case err := <-done:
				t.Fatalf("triage %q exited: %v\n%s", args, err, log.String())
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("probe %q: %v\n%s\nserver log:\n%s", pr, err, out, log.String())
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("triage %q after SIGTERM: %v\n%s", args, err, log.String())
		}
	case <-time.After(grace):
		t.Errorf("triage %q still running %v after SIGTERM (the grace period)\n%s", args, grace, log.String())
	}
}

// testCertificates makes a CA and a server certificate for names, as the
// triage-tls Secret holds them (tls.crt, tls.key, ca.crt).
func testCertificates(t *testing.T, names []string) map[string]string {
	t.Helper()
	pemOf := func(typ string, der []byte) string {
		return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}))
	}
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ca := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	leaf := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "triage"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), DNSNames: names,
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		KeyUsage: x509.KeyUsageDigitalSignature}
	leafDER, err := x509.CreateCertificate(rand.Reader, leaf, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"tls.crt": pemOf("CERTIFICATE", leafDER), "tls.key": pemOf("PRIVATE KEY", keyDER), "ca.crt": pemOf("CERTIFICATE", caDER)}
}
