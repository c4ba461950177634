package cli

import (
	"context"
	"fmt"
	"time"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/store/runstore"
)

// reportConfig returns the run's config for the report of the run store
// at path: the one the report was given, else the one the run store
// records, resolved from where the store is (orchestrator.ManifestConfig);
// an error says why neither can be used.
func reportConfig(ctx context.Context, rs runstore.Store, path string, opts reportOptions) (*orchestrator.Config, error) {
	if opts.Config != nil {
		return opts.Config, nil
	}
	m, err := rs.Manifest(ctx)
	if err != nil {
		return nil, err
	}
	return orchestrator.ManifestConfig(m.Config, path)
}

// reportResults reads what a report shows. It judges each stored cell
// against the grid as cfg, the run's config, lays it out now — the ground
// truth as its Executor holds it, the config as it reads today
// (orchestrator.Runner.CurrentGrid) — so that a cell whose inputs changed
// since the last run (its ground truth re-imported, the config edited) is
// reported stale rather than as it was. Without cfg, or when today's grid
// cannot be laid out (a note on env.Stderr says why), it judges against
// the grid the last run saved.
func reportResults(ctx context.Context, rs runstore.Store, cfg *orchestrator.Config, gt *reportGroundTruth, opts reportOptions, env Env) (runstore.Results, error) {
	if cfg == nil {
		return rs.Results(ctx)
	}
	current, err := currentGrid(ctx, cfg, rs, gt, opts.Dial, env)
	if err != nil {
		fmt.Fprintf(env.Stderr, "note: freshness is judged against the last run's inputs, not today's: %v\n", err)
		return rs.Results(ctx)
	}
	return rs.ResultsAgainst(ctx, current)
}

// currentGrid lays out cfg's grid as a run would now, calling no model and
// writing nothing: the Planner in process (or the config's remote one)
// lists the endpoints, the Executor (in process over gt, the ground-truth
// store, which must exist, or the config's remote one) gives the ground
// truth. The ground-truth files the config imports at a run's start are
// not imported.
func currentGrid(ctx context.Context, cfg *orchestrator.Config, rs runstore.Store, gt *reportGroundTruth, dial *dialFlags, env Env) (_ runstore.Current, err error) {
	st, err := gt.store(ctx)
	if err != nil {
		return runstore.Current{}, err
	}
	src := configSources(cfg)
	src.cache = "off" // laying out the grid reads no answer
	llmCfg, closeCache, err := plannerConfig(ctx, src, env)
	if err != nil {
		return runstore.Current{}, err
	}
	defer closeInto(&err, closeCache)
	if dial == nil {
		dial = &dialFlags{}
	}
	conns, err := connectNoCalls(cfg, llmCfg, st, dial, env)
	if err != nil {
		return runstore.Current{}, err
	}
	defer closeInto(&err, conns.Close)
	runner := orchestrator.NewRunner(cfg, orchestrator.Clients{
		Planner:  triagev1.NewPlannerServiceClient(conns.conns["planner"]),
		Executor: triagev1.NewExecutorServiceClient(conns.conns["executor"]),
	}, rs, time.Now, nil, orchestrator.Options{})
	grid, accuracy, err := runner.CurrentGrid(ctx)
	if err != nil {
		return runstore.Current{}, err
	}
	return runstore.Current{Grid: grid, Accuracy: accuracy}, nil
}
