package llm

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/triage-eval/triage/internal/llm/llmtest"
)

// BenchmarkGatewayThroughput makes 2,000 calls, cache off, at concurrency
// 32 to a test server answering each after 50 ms: the ideal wall time is
// 2000·50 ms/32 = 3.125 s, and the gateway must stay within 1.2× of it.
// It reports:
//
//	wall-s             wall time of the 2,000 gateway calls
//	x-ideal            wall-s / 3.125 s
//	cpu-µs/call        process CPU (user+sys) per gateway call, the
//	                   in-process test server's share included
//	raw-cpu-µs/call    the same for a bare net/http client sending the
//	                   same body to the same server (the baseline)
//	gw-cpu-µs/call     the difference: the gateway's own CPU per call
func BenchmarkGatewayThroughput(b *testing.B) {
	const (
		calls       = 2000
		concurrency = 32
		latency     = 50 * time.Millisecond
	)
	ideal := time.Duration(calls) * latency / concurrency
	reply := llmtest.VLLM(llmtest.Completion{Content: "The answer is 4.", Reasoning: "2+2=4",
		PromptTokens: 120, CompletionTokens: 300})
	srv := llmtest.NewServer(b, llmtest.WithLatency(latency), llmtest.WithoutLog(),
		llmtest.WithHandler(func(int, llmtest.Recorded) llmtest.Reply { return reply }))
	ep := Endpoint{Name: "bench", BaseURL: srv.URL(), Model: "Qwen/Qwen3-8B", Mode: ModeExtended,
		Family: FamilyQwen, MaxOutputTokens: 32768, Concurrency: concurrency, Timeout: 30 * time.Second}
	c, err := New(ep)
	if err != nil {
		b.Fatal(err)
	}
	req := Request{Messages: []Message{
		{Role: RoleSystem, Content: "You are a careful solver."},
		{Role: RoleUser, Content: strings.Repeat("Find all real x such that x^2 - 5x + 6 = 0. ", 20)},
	}}
	w, err := buildWire(c.ep, c.extraBody, req)
	if err != nil {
		b.Fatal(err)
	}
	body, err := w.body()
	if err != nil {
		b.Fatal(err)
	}
	raw := &http.Client{Transport: newBaseTransport(concurrency)}
	url := srv.URL() + "/chat/completions"

	var wall, cpu, rawCPU time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		_, rc := measure(b, func() { runRaw(b, raw, url, body, calls, concurrency) })
		rawCPU += rc
		b.StartTimer()
		wt, ct := measure(b, func() { runGateway(b, c, req, calls) })
		wall += wt
		cpu += ct
	}
	b.StopTimer()
	n := float64(b.N)
	perCall := func(d time.Duration) float64 { return float64(d.Microseconds()) / n / calls }
	ratio := wall.Seconds() / n / ideal.Seconds()
	b.ReportMetric(wall.Seconds()/n, "wall-s")
	b.ReportMetric(ratio, "x-ideal")
	b.ReportMetric(perCall(cpu), "cpu-µs/call")
	b.ReportMetric(perCall(rawCPU), "raw-cpu-µs/call")
	b.ReportMetric(perCall(cpu-rawCPU), "gw-cpu-µs/call")
	if ratio > 1.2 {
		b.Errorf("wall time %.3fs is %.2f× the ideal %.3fs, want ≤ 1.2×", wall.Seconds()/n, ratio, ideal.Seconds())
	}
	if got := srv.MaxInFlight(); got > concurrency {
		b.Errorf("server saw %d requests at once, limit %d", got, concurrency)
	}
}

// runGateway fans calls out at once; the client's limit keeps
// concurrency of them in flight.
func runGateway(b *testing.B, c *Client, req Request, calls int) {
	var wg sync.WaitGroup
	var failed atomic.Int64
	for range calls {
		wg.Go(func() {
			r, err := c.Complete(context.Background(), req)
			if err != nil || r.Attempts != 1 || r.Reasoning == "" {
				failed.Add(1)
			}
		})
	}
	wg.Wait()
	if f := failed.Load(); f > 0 {
		b.Fatalf("%d gateway calls failed or were retried", f)
	}
}

// runRaw is the baseline: concurrency workers posting body with net/http
// and reading the answer, no JSON work.
func runRaw(b *testing.B, hc *http.Client, url string, body []byte, calls, concurrency int) {
	var wg sync.WaitGroup
	var next, failed atomic.Int64
	for range concurrency {
		wg.Go(func() {
			for next.Add(1) <= int64(calls) {
				resp, err := hc.Post(url, "application/json", bytes.NewReader(body))
				if err != nil {
					failed.Add(1)
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					failed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if f := failed.Load(); f > 0 {
		b.Fatalf("%d raw calls failed", f)
	}
}

// measure returns the wall time and the process CPU time (user + system)
// f took.
func measure(b *testing.B, f func()) (wall, cpu time.Duration) {
	before, start := rusageCPU(b), time.Now()
	f()
	return time.Since(start), rusageCPU(b) - before
}

func rusageCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
