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
	"io"
	"math/big"
	mathrand "math/rand/v2"
	"net"
	"net/http"
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
	// Until the Scoring service is merged (issue 23, item 1), the binary
	// built here has no --services=scoring and no upstream flags: its
	// manifests are checked offline only.
	scoringServed := regexp.MustCompile(`(?m)^\s+-oracle-addr\b`).Match(help)
	unserved := func(args []string) bool {
		v, _ := flagValue(args, "services")
		return v == "scoring" && !scoringServed
	}
	all := buildAll(t)
	var missing []string
	for _, dir := range []string{"base", "overlays/example-tls"} {
		for _, d := range all[dir].deployments {
			if args := d.Spec.Template.Spec.Containers[0].Args; !unserved(args) {
				missing = append(missing, unknownFlags(string(help), args)...)
			}
		}
	}
	for _, s := range loadCompose(t).Services {
		if len(s.Command) > 0 && s.Command[0] == "serve" && !unserved(s.Command) {
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
	tlsFiles := testCertificates(t, []string{"triage-oracle", "triage-planner", "triage-scoring", "triage-executor",
		"triage-executor.triage-sandbox.svc", "triage-oracle-pods", "triage-executor-pods.triage-sandbox.svc", "oracle", "planner", "scoring", "executor", "localhost"})
	endpoints := `{"stub": {"base_url": "http://127.0.0.1:9/v1", "model": "stub", "mode": "standard"}}`
	secrets := map[string]map[string]string{
		"triage-auth":      {"tokens": hex.EncodeToString(sum[:]) + " * deploy-test\n"},
		"triage-endpoints": {"endpoints.json": endpoints},
		"triage-tls":       tlsFiles,
		// Scoring's token for its upstreams.
		"triage-scoring-upstream": {"token": token},
	}

	for _, dir := range []string{"base", "overlays/example-tls"} {
		for _, d := range all[dir].deployments {
			t.Run(dir+"/"+d.Name, func(t *testing.T) {
				spec := d.Spec.Template.Spec
				c := spec.Containers[0]
				if unserved(c.Args) {
					t.Skip("this tree's triage serve has no Scoring service yet")
				}
				run := materialize(t, t.TempDir(), spec, c, nil, secrets, nil)
				serveOnFreePorts(t, func(port, httpPort int) bool {
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
					_, tls := flagValue(args, "tls-cert")
					if _, ok := flagValue(args, "http-listen"); ok {
						probes = append(probes, httpHealthProbe(t, httpPort, tls, tlsFiles["ca.crt"]))
					}
					env := slices.Concat(pg, run.env)
					var checks []func() error
					if metricsPort(c) != 0 {
						// Where the autoscaler's metric comes from: one call, then
						// its duration on the exporter's /metrics.
						mport := freePort(t)
						env = append(env, "OTEL_EXPORTER_PROMETHEUS_HOST=127.0.0.1", fmt.Sprintf("OTEL_EXPORTER_PROMETHEUS_PORT=%d", mport))
						checks = append(checks, callDurationExported(t, port, mport, healthService[d.Spec.Template.Labels[componentLabel]], token, tls, tlsFiles["ca.crt"]))
					}
					grace := time.Duration(*spec.TerminationGracePeriodSeconds) * time.Second
					return serveAndProbe(t, bin, args, env, probes, checks, grace)
				})
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
			if unserved(s.Command) {
				t.Skip("this tree's triage serve has no Scoring service yet")
			}
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
			serveOnFreePorts(t, func(port, httpPort int) bool {
				var args []string
				for _, a := range s.Command {
					args = append(args, fromSecrets(a))
				}
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
				return serveAndProbe(t, bin, args, pg, probes, nil, time.Duration(*s.StopGracePeriod))
			})
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

// maxBindAttempts is how many times a server is started on fresh ports
// when another process took a port between freePort and its bind.
const maxBindAttempts = 3

// serveOnFreePorts calls serve with a free gRPC and HTTP port, and again
// with fresh ones while serve asks to rebind (another process took a port
// between freePort and the server's bind), at most maxBindAttempts times.
func serveOnFreePorts(t *testing.T, serve func(port, httpPort int) (rebind bool)) {
	t.Helper()
	for attempt := 1; serve(freePort(t), freePort(t)); attempt++ {
		if attempt == maxBindAttempts {
			t.Fatalf("the server's ports were taken by another process %d times in a row", attempt)
		}
		t.Logf("attempt %d: a port was taken before the server bound it; trying fresh ports", attempt)
	}
}

// freePort returns a loopback port nobody listens on, drawn at random from
// the 12,000 ports below the kernel's ephemeral range: a port from ":0"
// lies inside it, where any outgoing connection on the machine can take it
// before the server binds it. (The main module's servertest.FreeLoopbackAddr
// does the same; this module does not import that one.)
func freePort(t *testing.T) int {
	t.Helper()
	low := 32768
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) > 0 {
			if n, err := strconv.Atoi(f[0]); err == nil {
				low = n
			}
		}
	}
	if low < 1024+12000 { // no room below the range: any port will do
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		return l.Addr().(*net.TCPAddr).Port
	}
	for range 100 {
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", low-12000+mathrand.IntN(12000)))
		if err == nil {
			defer l.Close()
			return l.Addr().(*net.TCPAddr).Port
		}
	}
	t.Fatalf("no free loopback port below %d after 100 tries", low)
	return 0
}

// serveAndProbe starts the server, waits until every probe passes and
// then every check, then sends SIGTERM and wants the server to exit cleanly
// within grace. It returns rebind, having checked nothing, when the server
// exited because one of its ports was already in use: freePort's port can
// be taken by another process before the server binds it.
func serveAndProbe(t *testing.T, bin string, args, env []string, probes [][]string, checks []func() error, grace time.Duration) (rebind bool) {
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
	var steps []func() error // the probes, in order, then the checks
	for _, pr := range probes {
		steps = append(steps, func() error {
			out, err := exec.Command(pr[0], pr[1:]...).CombinedOutput()
			if err != nil {
				return fmt.Errorf("probe %q: %v\n%s", pr, err, out)
			}
			return nil
		})
	}
	for _, check := range append(steps, checks...) {
		deadline := time.Now().Add(2 * time.Minute) // only catches a hang
		for {
			err := check()
			if err == nil {
				break
			}
			select {
			case err := <-done:
				if strings.Contains(log.String(), "address already in use") {
					return true
				}
				t.Fatalf("triage %q exited: %v\n%s", args, err, log.String())
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("%v\nserver log:\n%s", err, log.String())
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
	return false
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

// metricsPort is the container's port named metrics, or 0.
func metricsPort(c corev1.Container) int32 {
	for _, p := range c.Ports {
		if p.Name == "metrics" {
			return p.ContainerPort
		}
	}
	return 0
}

// callDurationExported returns a check that makes one call to service on
// the gRPC port (with the token; over TLS verified against caPEM when tls)
// and then wants the call's duration on the exporter's /metrics at
// metricsPort, as the series the autoscaler's adapter rule reads, for that
// service's method.
func callDurationExported(t *testing.T, port, metricsPort int, service, token string, tls bool, caPEM string) func() error {
	t.Helper()
	method := map[string]string{"triage.v1.PlannerService": "CreatePlan"}[service]
	if method == "" {
		t.Fatalf("no call to make to %s", service)
	}
	// An empty unary call over HTTP/2: the server answers it with an error
	// status, and records its duration all the same.
	call := []string{lookPath(t, "curl"), "-sS", "--max-time", "5", "-o", "/dev/null", "--data-binary", "@/dev/null",
		"-H", "content-type: application/grpc", "-H", "te: trailers", "-H", "authorization: Bearer " + token}
	if tls {
		ca := filepath.Join(t.TempDir(), "ca.crt")
		if err := os.WriteFile(ca, []byte(caPEM), 0o600); err != nil {
			t.Fatal(err)
		}
		call = append(call, "--http2", "--cacert", ca, fmt.Sprintf("https://localhost:%d/%s/%s", port, service, method))
	} else {
		call = append(call, "--http2-prior-knowledge", fmt.Sprintf("http://127.0.0.1:%d/%s/%s", port, service, method))
	}
	want := regexp.MustCompile(`(?m)^` + callDurationSum + `\{[^}]*rpc_method="` + regexp.QuoteMeta(service+"/"+method) + `"`)
	return func() error {
		if out, err := exec.Command(call[0], call[1:]...).CombinedOutput(); err != nil {
			return fmt.Errorf("%q: %v\n%s", call, err, out)
		}
		resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/metrics", metricsPort))
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		if !want.Match(body) {
			return fmt.Errorf("/metrics has no %s for %s/%s:\n%s", callDurationSum, service, method, body)
		}
		return nil
	}
}
