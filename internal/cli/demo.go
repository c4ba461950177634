package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/triage-eval/triage/internal/runs/demo"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/store/runstore"
)

// Environment variables that add the LLM planner to the demo.
const (
	demoBaseURL   = "TRIAGE_DEMO_BASE_URL"
	demoModel     = "TRIAGE_DEMO_MODEL"
	demoAPIKeyEnv = "TRIAGE_DEMO_API_KEY_ENV"
	demoFamily    = "TRIAGE_DEMO_FAMILY"
)

func runDemo(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("demo", env.Stderr)
	out := fs.String("out", "triage-demo", "directory for the sample, the stores and the report (reused: a second run resumes)")
	progress := fs.String("progress", "auto", "progress display: auto, plain or off")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `usage: triage demo [flags]

Runs the α sweep on a bundled SYNTHETIC sample (invented problems and invented
solvers, not real model results) with the reference planning strategies,
prints the η table and writes the report. With %s and %s set (and
%s naming the variable that holds an API key, %s the provider family),
an LLM also plans every pool.

flags:
`, demoBaseURL, demoModel, demoAPIKeyEnv, demoFamily)
		fs.PrintDefaults()
	}
	if _, err := parseFlags(fs, args, env.Getenv, 0); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	dir, err := filepath.Abs(*out)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, data := range map[string][]byte{"problems.jsonl": demo.Problems(), "ground_truth.jsonl": demo.GroundTruth()} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	cfg := &orchestrator.Config{
		Name: "demo (synthetic)", RunStore: "run.db", GroundTruthStore: "ground-truth.db",
		Problems: []string{"problems.jsonl"}, GroundTruth: []string{"ground_truth.jsonl"},
		Datasets: demo.Datasets(), PartitionSeed: 1, StrategySeed: 1,
		Random:    orchestrator.RandomConfig{Samples: 1000, Seed: 1},
		LLMCache:  "llm-cache.db",
		Injection: []orchestrator.Injection{{Base: demo.InjectionBase, Source: demo.InjectionSource}},
	}
	llmOn := env.Getenv(demoBaseURL) != "" && env.Getenv(demoModel) != ""
	for _, s := range demo.Solvers() {
		solver := orchestrator.Solver{Model: s.Model, Mode: s.Mode}
		if llmOn {
			// One endpoint per mode: a planner plays its solver's mode.
			solver.Endpoint = "demo-" + s.Mode
		}
		cfg.Solvers = append(cfg.Solvers, solver)
	}
	if llmOn {
		endpoint := func(mode string) map[string]any {
			return map[string]any{
				"base_url": env.Getenv(demoBaseURL), "model": env.Getenv(demoModel), "mode": mode,
				"api_key_env": env.Getenv(demoAPIKeyEnv), "family": env.Getenv(demoFamily),
			}
		}
		eps, err := json.Marshal(map[string]any{"demo-standard": endpoint("standard"), "demo-extended": endpoint("extended")})
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "endpoints.json"), eps, 0o644); err != nil {
			return err
		}
		cfg.Endpoints = "endpoints.json"
	}
	if err := cfg.Prepare(dir); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "TRIAGE demo on a SYNTHETIC sample (%d solvers, datasets %v, α %v, strategies %v) in %s\n",
		len(cfg.Solvers), cfg.Datasets, cfg.Alphas, cfg.Strategies, dir)
	if err := runGrid(ctx, "demo", cfg, *progress, orchestrator.Options{}, runstore.DefaultOutage, nil, env); err != nil {
		return err
	}
	return writeReport(ctx, cfg.Path(cfg.RunStore), filepath.Join(dir, "report"), reportOptions{Synthetic: true}, env)
}
