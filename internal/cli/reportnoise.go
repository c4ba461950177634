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
// from (orchestrator.NoiseInput), through the Executor of cfg, the run's
// config (reportConfig). It returns nil — the report has no noise part —
// when no item has more than one sample, and also, with a one-line note
// on env.Stderr, when the samples cannot be read (the store or the
// Executor does not answer): the rest of the report does not need them.
func noiseInput(ctx context.Context, rs runstore.Store, cfg *orchestrator.Config, gt *reportGroundTruth, records []report.ScoreRecord, opts reportOptions, env Env) *report.NoiseInput {
	in, err := readNoiseInput(ctx, rs, cfg, gt, records, opts, env)
	if err != nil {
		fmt.Fprintf(env.Stderr, "note: no measurement-noise part (SPEC §9 repeated Phase 0): %v\n", err)
		return nil
	}
	return in
}

// readNoiseInput is noiseInput, its failure an error.
func readNoiseInput(ctx context.Context, rs runstore.Store, cfg *orchestrator.Config, gt *reportGroundTruth, records []report.ScoreRecord, opts reportOptions, env Env) (_ *report.NoiseInput, err error) {
	dial := opts.Dial
	if dial == nil {
		dial = &dialFlags{}
	}
	st, err := gt.store(ctx)
	if err != nil {
		return nil, err
	}
	exec, closeConn, err := connectExecutor(st, cfg.Services.Executor, dial, env)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, closeConn()) }()
	return orchestrator.NoiseInput(ctx, rs, cfg, exec, records)
}
