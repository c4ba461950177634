package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/store/groundtruth"
)

// loadConfigArg parses the flags of a command whose one argument is a run
// config, and loads the config. It returns nil and no error after -h.
func loadConfigArg(fs *flag.FlagSet, args []string, env Env) (*orchestrator.Config, error) {
	cfg, err := readConfigArg(fs, args, env)
	if cfg == nil || err != nil {
		return cfg, err
	}
	return cfg, makeStoreFolders(cfg)
}

// readConfigArg is loadConfigArg for a command that writes nothing (a
// quote): the folders of the config's stores are not made.
func readConfigArg(fs *flag.FlagSet, args []string, env Env) (*orchestrator.Config, error) {
	rest, err := parseFlags(fs, args, env.Getenv, 1)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, nil
		}
		return nil, err
	}
	if len(rest) != 1 {
		return nil, fmt.Errorf("%w: %s needs the run's config file (YAML)", ErrUsage, fs.Name())
	}
	return readConfig(rest[0])
}

// loadConfig reads a run config, saying what the file is when it is not
// one, and creates the folders of the config's local stores.
func loadConfig(path string) (*orchestrator.Config, error) {
	cfg, err := readConfig(path)
	if err != nil {
		return nil, err
	}
	return cfg, makeStoreFolders(cfg)
}

// readConfig reads a run config, saying what the file is when it is not
// one.
func readConfig(path string) (*orchestrator.Config, error) {
	if err := wrongKind(path, "a run config (YAML, see docs/reference.md)"); err != nil {
		return nil, err
	}
	return orchestrator.LoadConfig(path)
}

// makeStoreFolders creates the folders of cfg's local stores.
func makeStoreFolders(cfg *orchestrator.Config) error {
	for _, loc := range []string{cfg.RunStore, cfg.GroundTruthStore, cfg.LLMCache} {
		if err := ensureParent(cfg.Path(loc)); err != nil {
			return err
		}
	}
	return nil
}

// openGroundTruth opens the config's ground-truth store when the Executor
// runs in process (instrumented with env's meter provider) and returns the
// store's Close; with a remote Executor it returns nil and a no-op close.
func openGroundTruth(ctx context.Context, cfg *orchestrator.Config, env Env) (groundtruth.Store, func() error, error) {
	return openGroundTruthWith(ctx, groundtruth.Open, cfg, env)
}

// openGroundTruthToRead is openGroundTruth for a command that only reads
// the store, such as a report (groundtruth.OpenToRead).
func openGroundTruthToRead(ctx context.Context, cfg *orchestrator.Config, env Env) (groundtruth.Store, func() error, error) {
	return openGroundTruthWith(ctx, groundtruth.OpenToRead, cfg, env)
}

// openGroundTruthWith is openGroundTruth with open opening the store.
func openGroundTruthWith(ctx context.Context, open func(context.Context, string) (groundtruth.Store, error), cfg *orchestrator.Config, env Env) (groundtruth.Store, func() error, error) {
	if cfg.Services.Executor != "" {
		return nil, func() error { return nil }, nil
	}
	st, err := open(ctx, cfg.Path(cfg.GroundTruthStore))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", cfg.Where("ground_truth_store"), err)
	}
	return groundtruth.Instrument(st, env.meterProvider()), st.Close, nil
}

// solveOptionsOf is how a config's baseline block sets up grading.
func solveOptionsOf(cfg *orchestrator.Config) solveOptions {
	return solveOptions{judgeEndpoint: cfg.Baseline.JudgeEndpoint, python: cfg.Baseline.Python, codeConcurrency: cfg.Baseline.CodeConcurrency}
}
