package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/runs/report"
	"github.com/triage-eval/triage/internal/store/runstore"
)

// noiseInput reads what the report's measurement-noise part is computed
// from (orchestrator.NoiseInput), through the Executor of opts.Config, or
// of the config the run store at path records when opts.Config is nil.
// It returns nil — the report has no noise part — when no item has more
// than one sample, and also, with a one-line note on env.Stderr, when the
// samples cannot be read (the run store's config does not locate its
// ground truth from here, the store or the Executor does not answer): the
// rest of the report does not need them.
func noiseInput(ctx context.Context, rs runstore.Store, path string, records []report.ScoreRecord, opts reportOptions, env Env) *report.NoiseInput {
	in, err := readNoiseInput(ctx, rs, path, records, opts, env)
	if err != nil {
		fmt.Fprintf(env.Stderr, "note: no measurement-noise part (SPEC §9 repeated Phase 0): %v\n", err)
		return nil
	}
	return in
}

// readNoiseInput is noiseInput, its failure an error.
func readNoiseInput(ctx context.Context, rs runstore.Store, path string, records []report.ScoreRecord, opts reportOptions, env Env) (_ *report.NoiseInput, err error) {
	cfg := opts.Config
	if cfg == nil {
		m, err := rs.Manifest(ctx)
		if err != nil {
			return nil, err
		}
		if cfg, err = orchestrator.ManifestConfig(m.Config, path); err != nil {
			return nil, fmt.Errorf("%w; pass the run's config (triage report CONFIG.yaml) to read its samples", err)
		}
	}
	dial := opts.Dial
	if dial == nil {
		dial = &dialFlags{}
	}
	exec, closeExec, err := openExecutor(ctx, cfg.Path(cfg.GroundTruthStore), cfg.Services.Executor, "", dial, true, env)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, closeExec()) }()
	return orchestrator.NoiseInput(ctx, rs, cfg, exec, records)
}
