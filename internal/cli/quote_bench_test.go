package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// paperScale writes the paper's study shape into dir — 20 solvers (10
// models × 2 modes) × 8 datasets × 7 pools of 30 (33,600 Phase 0 solves),
// 4 α × 3 variants of the llm strategy (13,440 planner calls) — with
// problems of about 600 bytes, and returns the config's path; with
// measured, every Phase 0 record is stored first.
func paperScale(b *testing.B, dir string, measured bool) string {
	b.Helper()
	var probs, gt, eps, solvers strings.Builder
	body := strings.Repeat("Find the number of ordered pairs (x, y) of integers with 0 < x < y < 1000 such that ", 7)
	eps.WriteString("{")
	for s := range 20 {
		mode := [2]string{"standard", "extended"}[s%2]
		name := fmt.Sprintf("m%02d-%s", s/2, mode)
		if s > 0 {
			eps.WriteString(",")
		}
		fmt.Fprintf(&eps, `"%s": {"base_url": "http://127.0.0.1:9/v1", "model": "model-%02d", "mode": "%s", "max_output_tokens": 32768, "price": {"input_per_mtok": 1.25, "output_per_mtok": 10}}`, name, s/2, mode)
		fmt.Fprintf(&solvers, "  - {model: model-%02d, mode: %s, endpoint: %s}\n", s/2, mode, name)
	}
	eps.WriteString("}")
	for d := range 8 {
		ds := fmt.Sprintf("ds%d", d)
		for i := range 7 * 30 {
			id := fmt.Sprintf("%s-%04d", ds, i)
			fmt.Fprintf(&probs, `{"id":"%s","dataset":"%s","text":"%s (problem %s)","grading":{"kind":"math","answer":"%d"}}`+"\n", id, ds, body, id, i)
			for s := range 20 {
				fmt.Fprintf(&gt, `{"model":"model-%02d","mode":"%s","dataset":"%s","problem_id":"%s","cost":%d,"correct":%v,"measured_at":"2026-01-01T00:00:00Z"}`+"\n",
					s/2, [2]string{"standard", "extended"}[s%2], ds, id, 300+(i*37+s*11)%4000, (i+s)%3 != 0)
			}
		}
	}
	files := map[string]string{
		"problems.jsonl": probs.String(), "gt.jsonl": gt.String(), "endpoints.json": eps.String(),
		"run.yaml": "name: paper\nrun_store: run.db\nground_truth_store: gt.db\nproblems: [problems.jsonl]\nendpoints: endpoints.json\nllm_cache: llm-cache.db\npool_size: 30\n" +
			"alphas: [0.25, 0.5, 0.75, 1]\nvariants: [default, A, B]\nstrategies: [llm]\nsolvers:\n" + solvers.String(),
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	cfg := filepath.Join(dir, "run.yaml")
	if measured {
		env, _, logs := testEnv(nil)
		if err := Run(context.Background(), []string{"ground-truth", "import", "--config", cfg, filepath.Join(dir, "gt.jsonl")}, env); err != nil {
			b.Fatalf("import: %v\n%s", err, logs)
		}
	}
	return cfg
}

// BenchmarkQuotePaperScale times `triage quote` on the paper's study shape
// (paperScale), end to end: reading the config, the stores and the cache,
// laying out the grid, rendering every prompt, looking each up in the
// cache. fresh: nothing measured (33,600 Phase 0 calls to look up, 13,440
// provisional planner calls); after_phase0: every solve stored (13,440
// planner prompts with their budgets, each looked up). Bar: < 1 s.
func BenchmarkQuotePaperScale(b *testing.B) {
	for _, measured := range []bool{false, true} {
		name := "fresh"
		if measured {
			name = "after_phase0"
		}
		b.Run(name, func(b *testing.B) {
			cfg := paperScale(b, b.TempDir(), measured)
			env, _, logs := testEnv(nil)
			env.Stdout = io.Discard
			cpu0 := cpuTime(b)
			n := 0
			for b.Loop() {
				if err := Run(context.Background(), []string{"quote", "--json", cfg}, env); err != nil {
					b.Fatalf("quote: %v\n%s", err, logs)
				}
				n++
			}
			// CPU seconds per quote (user + system, every core): what the
			// machine's other load does not inflate.
			b.ReportMetric((cpuTime(b)-cpu0).Seconds()/float64(n), "cpu-s/op")
		})
	}
}

// cpuTime is the CPU time this process has used so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
