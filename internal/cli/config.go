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
	if err := parseFlags(fs, args, env.Getenv, 1); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, nil
		}
		return nil, err
	}
	if fs.NArg() != 1 {
		return nil, fmt.Errorf("%w: %s needs one config file", ErrUsage, fs.Name())
	}
	return orchestrator.LoadConfig(fs.Arg(0))
}

// openGroundTruth opens the config's ground-truth store when the Executor
// runs in process; with a remote Executor it returns nil and a no-op close.
func openGroundTruth(ctx context.Context, cfg *orchestrator.Config) (store.Store, func(), error) {
	if cfg.Services.Executor != "" {
		return nil, func() {}, nil
	}
	st, err := store.Open(ctx, cfg.Path(cfg.GroundTruthStore))
	if err != nil {
		return nil, nil, fmt.Errorf("ground_truth_store: %w", err)
	}
	return st, func() { st.Close() }, nil
}

// solveOptionsOf is how a config's baseline block sets up grading.
func solveOptionsOf(cfg *orchestrator.Config) solveOptions {
	return solveOptions{judgeEndpoint: cfg.Baseline.JudgeEndpoint, python: cfg.Baseline.Python, codeConcurrency: cfg.Baseline.CodeConcurrency}
}
