// Command load measures triage serve under load, and what TLS and token
// authentication cost it: ghz (pinned in go.mod, run with `go tool ghz`)
// sends one service's paper call at a fixed concurrency to that service
// served twice — once in plaintext without tokens, once with TLS and a
// token file — in runs of a fixed duration, alternating between the two.
// The calls (-service):
//
//   - oracle: ComputeReferences of a 30-item pool, the α sweep, 1000 Monte
//     Carlo samples;
//   - scoring: ScorePlan of a plan over a 30-item pool at α = 0.5, both
//     regimes, 1000 Monte Carlo samples, a different seed on every call
//     (so the Scoring service's references cache never answers: every call
//     computes its references, and the cache stays full).
//
// It samples the server's resident set (VmRSS in /proc) every second and
// its CPU time, and prints per run the calls, errors, throughput,
// latencies and RSS, then the verdicts: zero errors, RSS flat from the
// first run to the last, and the secure throughput within 25% of the
// plaintext one.
//
//	go run ./scripts/load [-service oracle] [-duration 60s] [-concurrency 50] [-runs 2] [-bin bin/triage]
//
// make load builds bin/triage and runs it with the defaults (LOAD_SERVICE
// picks the service). Linux only (/proc).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/transport/transporttest"
)

// target is a service ghz can load.
type target struct {
	// proto is its file, from the repository's root.
	proto string
	// call is the method ghz calls.
	call string
	// describe says what the call is, for the report.
	describe string
	// data is the call's request as ghz data (JSON, with ghz's template
	// actions).
	data func() []byte
}

// targets are the services -service picks from, by their triage serve names.
var targets = map[string]target{
	"oracle": {
		proto: "proto/triage/v1/oracle.proto", call: "triage.v1.OracleService/ComputeReferences",
		describe: "ComputeReferences (30 items, 4 budgets, 1000 samples)", data: sweepRequest,
	},
	"scoring": {
		proto: "proto/triage/v1/scoring.proto", call: "triage.v1.ScoringService/ScorePlan",
		describe: "ScorePlan (30 items, 1 budget, both regimes, 1000 samples, a seed per call)", data: scoreRequest,
	},
}

// ghzImportPaths are where ghz finds the files ghzProto imports: our protos
// and the vendored googleapis ones.
var ghzImportPaths = []string{"proto", "third_party/googleapis"}

func main() {
	service := flag.String("service", "oracle", "the service to load: oracle or scoring")
	duration := flag.Duration("duration", 60*time.Second, "length of one ghz run")
	concurrency := flag.Int("concurrency", 50, "ghz workers")
	runs := flag.Int("runs", 2, "consecutive ghz runs per configuration (RSS is compared between the first and the last)")
	bin := flag.String("bin", "bin/triage", "the triage binary to serve with")
	out := flag.String("out", "bin/load", "directory for the data, certificates and ghz reports")
	flag.Parse()
	t, ok := targets[*service]
	if !ok {
		fmt.Fprintf(os.Stderr, "load: -service must be oracle or scoring, got %q\n", *service)
		os.Exit(2)
	}
	if err := run(*service, t, *bin, *out, *duration, *concurrency, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

// config is one way of serving.
type config struct {
	name      string
	serveArgs []string
	ghzArgs   []string
}

// minute is what one ghz run measured.
type minute struct {
	calls, errors    int
	rps              float64
	p50, p99         time.Duration
	rssStart, rssEnd int64 // KiB
	rssMax           int64 // KiB
	cpu              time.Duration
}

func run(service string, t target, bin, out string, duration time.Duration, concurrency, runs int) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	pki, err := transporttest.Write(out)
	if err != nil {
		return err
	}
	token := fmt.Sprintf("load-%016x%016x", rand.Uint64(), rand.Uint64())
	tokens := filepath.Join(out, "tokens.txt")
	if err := os.WriteFile(tokens, []byte(server.HashToken(token)+" "+service+" load\n"), 0o600); err != nil {
		return err
	}
	data := filepath.Join(out, service+"-request.json")
	if err := os.WriteFile(data, t.data(), 0o644); err != nil {
		return err
	}
	configs := []config{
		{name: "plaintext, no tokens", ghzArgs: []string{"--insecure"}},
		{
			name:      "TLS and tokens",
			serveArgs: []string{"--tls-cert", pki.ServerCert, "--tls-key", pki.ServerKey, "--auth-tokens", tokens},
			ghzArgs:   []string{"--cacert", pki.CA, "--cname", "localhost", "-m", `{"authorization":"Bearer ` + token + `"}`},
		},
	}
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("ghz %s × %d runs, concurrency %d, %s; %d CPUs; load average %s\n",
		duration, runs, concurrency, t.describe, numCPU(), strings.Join(strings.Fields(string(load))[:3], " "))
	// Both servers run from the start; their ghz runs alternate, so that a
	// change in the machine's load hits both alike.
	servers := make([]*served, len(configs))
	for i, c := range configs {
		if servers[i], err = serve(bin, service, out, i, c); err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		defer servers[i].stop()
	}
	results := make([][]minute, len(configs))
	for r := range runs {
		for i, c := range configs {
			m, err := measure(servers[i], out, t, c, data, duration, concurrency, r)
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			results[i] = append(results[i], m)
		}
	}
	return report(configs, results)
}

// served is a running triage serve process.
type served struct {
	cmd  *exec.Cmd
	addr string
}

// serve starts triage serve for c, the i-th configuration, serving service
// (the Scoring service composes the Oracle and the Executor of its process,
// whose store is a fresh file in out).
func serve(bin, service, out string, i int, c config) (*served, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	store := filepath.Join(out, fmt.Sprintf("store-%d.db", i))
	if err := os.Remove(store); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	args := append([]string{"serve", "--services", service, "--listen", addr, "--log-format", "json", "--store", store}, c.serveArgs...)
	cmd := exec.Command(bin, args...)
	lines := &readyWatcher{ready: make(chan struct{})}
	cmd.Stderr = lines
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &served{cmd: cmd, addr: addr}
	select {
	case <-lines.ready:
		return s, nil
	case <-time.After(30 * time.Second):
		s.stop()
		return nil, errors.New("the server did not start")
	}
}

// stop interrupts the server and waits for it; the measurement is over, so
// how the server ends (or that it had already ended) does not matter.
func (s *served) stop() {
	_ = s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
	}
}

// measure runs ghz once (run r) against s and samples the server meanwhile.
func measure(s *served, out string, t target, c config, data string, duration time.Duration, concurrency, r int) (minute, error) {
	pid := s.cmd.Process.Pid
	m := minute{rssStart: rss(pid)}
	cpu0 := cpuTime(pid)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				m.rssMax = max(m.rssMax, rss(pid))
			}
		}
	}()
	report := filepath.Join(out, fmt.Sprintf("ghz-%s-%d.json", strings.NewReplacer(" ", "", ",", "-").Replace(c.name), r+1))
	ghz := exec.Command("go", append([]string{"tool", "ghz",
		"--proto", t.proto, "--import-paths", strings.Join(ghzImportPaths, ","),
		"--call", t.call,
		"-D", data, "-c", strconv.Itoa(concurrency), "-z", duration.String(),
		"--duration-stop", "wait", "--format", "json", "-o", report, s.addr}, c.ghzArgs...)...)
	ghz.Stderr = os.Stderr
	err := ghz.Run()
	cancel()
	wg.Wait()
	if err != nil {
		return m, fmt.Errorf("ghz: %w", err)
	}
	m.rssEnd, m.cpu = rss(pid), cpuTime(pid)-cpu0
	m.rssMax = max(m.rssMax, m.rssEnd)
	if err := readGhz(report, &m); err != nil {
		return m, err
	}
	fmt.Printf("  %-22s run %d: %7d calls, %5d errors, %7.0f calls/s, p50 %6.2f ms, p99 %6.2f ms, server CPU %5.1f s, RSS %d → %d MiB (max %d)\n",
		c.name, r+1, m.calls, m.errors, m.rps, ms(m.p50), ms(m.p99), m.cpu.Seconds(), m.rssStart>>10, m.rssEnd>>10, m.rssMax>>10)
	return m, nil
}

// report prints the comparison and the verdicts.
func report(configs []config, results [][]minute) error {
	plain, secure := results[0], results[1]
	rps := func(ms []minute) float64 {
		var s float64
		for _, m := range ms {
			s += m.rps
		}
		return s / float64(len(ms))
	}
	ratio := rps(secure) / rps(plain)
	var errs int
	for _, ms := range results {
		for _, m := range ms {
			errs += m.errors
		}
	}
	first, last := secure[0], secure[len(secure)-1]
	growth := float64(last.rssMax)/float64(first.rssMax) - 1
	fmt.Printf("\nthroughput: %s %.0f calls/s, %s %.0f calls/s: %.1f%% of plaintext (bar: ≥ 75%%)\n", configs[0].name, rps(plain), configs[1].name, rps(secure), 100*ratio)
	fmt.Printf("errors: %d (bar: 0)\n", errs)
	fmt.Printf("RSS with TLS and tokens: max %d MiB in the first run, %d MiB in the last: %+.1f%% (bar: flat, within ±10%%)\n", first.rssMax>>10, last.rssMax>>10, 100*growth)
	ok := errs == 0 && ratio >= 0.75 && growth <= 0.10
	fmt.Printf("verdict: %v\n", map[bool]string{true: "PASS", false: "FAIL"}[ok])
	if !ok {
		return errors.New("a bar was missed (the machine may be busy: rerun)")
	}
	return nil
}

// ghzReport is the part of ghz's JSON report we read.
type ghzReport struct {
	Count   int     `json:"count"`
	RPS     float64 `json:"rps"`
	Latency []struct {
		Percentage int           `json:"percentage"`
		Latency    time.Duration `json:"latency"`
	} `json:"latencyDistribution"`
	ErrorDist  map[string]int `json:"errorDistribution"`
	StatusDist map[string]int `json:"statusCodeDistribution"`
}

func readGhz(path string, m *minute) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var r ghzReport
	if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	m.calls, m.rps = r.Count, r.RPS
	for code, n := range r.StatusDist {
		if code != "OK" {
			m.errors += n
		}
	}
	for _, n := range r.ErrorDist {
		m.errors += n
	}
	for _, l := range r.Latency {
		switch l.Percentage {
		case 50:
			m.p50 = l.Latency
		case 99:
			m.p99 = l.Latency
		}
	}
	if len(r.ErrorDist) > 0 {
		fmt.Fprintf(os.Stderr, "errors in %s: %v\n", path, r.ErrorDist)
	}
	return nil
}

// sweepRequest is the paper's reference call as ghz data: a 30-item pool
// (costs 500–8192, seeded), the α sweep and 1000 samples.
func sweepRequest() []byte {
	r := rand.New(rand.NewPCG(11, 0x7e57))
	type item struct {
		ID      string `json:"id"`
		Cost    int64  `json:"cost"`
		Correct bool   `json:"correct"`
	}
	items := make([]item, 30)
	for i := range items {
		items[i] = item{ID: fmt.Sprintf("p%d", i+1), Cost: 500 + r.Int64N(7693), Correct: r.IntN(2) == 0}
	}
	b, _ := json.Marshal(map[string]any{
		"items":   items,
		"budgets": []map[string]float64{{"alpha": 0.25}, {"alpha": 0.5}, {"alpha": 0.75}, {"alpha": 1}},
		"random":  map[string]any{"samples": 1000, "seed": 1},
	})
	return b
}

// scoreRequest is the paper's scoring call as ghz data: a plan over every
// item of a 30-item pool (costs 500–8192, allocations 80–120% of them,
// seeded) at α = 0.5, both regimes, 1000 samples, and the call's number as
// the Monte Carlo seed.
func scoreRequest() []byte {
	r := rand.New(rand.NewPCG(12, 0x7e57))
	type item struct {
		ID      string `json:"id"`
		Cost    int64  `json:"cost"`
		Correct bool   `json:"correct"`
	}
	type step struct {
		ID     string `json:"id"`
		Tokens int64  `json:"tokens"`
	}
	items, plan := make([]item, 30), make([]step, 30)
	for i := range items {
		items[i] = item{ID: fmt.Sprintf("p%d", i+1), Cost: 500 + r.Int64N(7693), Correct: r.IntN(2) == 0}
		plan[i] = step{ID: items[i].ID, Tokens: items[i].Cost * int64(80+r.IntN(41)) / 100}
	}
	b, _ := json.Marshal(map[string]any{
		"inline":  map[string]any{"items": items},
		"budgets": []map[string]float64{{"alpha": 0.5}},
		"plan":    plan,
		"options": map[string]any{"random": map[string]any{"samples": 1000, "seed": "SEED"}},
	})
	return bytes.Replace(b, []byte(`"SEED"`), []byte(`"{{.RequestNumber}}"`), 1)
}

// readyWatcher discards the server's log, printing its errors until it is
// serving, and closes ready at the "serving" line.
type readyWatcher struct {
	mu      sync.Mutex
	partial []byte // the last line, until its end arrives
	ready   chan struct{}
	seen    bool
}

func (l *readyWatcher) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen {
		return len(p), nil
	}
	l.partial = append(l.partial, p...)
	end := bytes.LastIndexByte(l.partial, '\n')
	if end < 0 {
		return len(p), nil
	}
	for _, line := range strings.Split(string(l.partial[:end]), "\n") {
		if strings.Contains(line, `"level":"ERROR"`) {
			fmt.Fprintln(os.Stderr, line)
		}
		if !l.seen && strings.Contains(line, `"msg":"serving"`) {
			l.seen = true
			close(l.ready)
		}
	}
	l.partial = append(l.partial[:0], l.partial[end+1:]...)
	if l.seen {
		l.partial = nil
	}
	return len(p), nil
}

var _ io.Writer = (*readyWatcher)(nil)

// freeAddr returns a loopback address with a free port.
func freeAddr() (string, error) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer func() { _ = lis.Close() }() // only held to pick the port
	return lis.Addr().String(), nil
}

// rss returns the process's resident set in KiB.
func rss(pid int) int64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.Fields(rest)[0], 10, 64)
			return kb
		}
	}
	return 0
}

// cpuTime returns the process's user + system CPU time.
func cpuTime(pid int) time.Duration {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// Fields after the command name, which is in parentheses.
	f := strings.Fields(string(raw)[strings.LastIndexByte(string(raw), ')')+2:])
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / 100 // USER_HZ
}

func numCPU() int {
	raw, _ := os.ReadFile("/proc/cpuinfo")
	return strings.Count(string(raw), "processor\t:")
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
