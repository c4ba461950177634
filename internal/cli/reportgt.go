package cli

import (
	"context"
	"fmt"

	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/store/groundtruth"
)

// reportGroundTruth is the run's ground-truth store as a report reads it:
// opened to read by the first part that needs it (freshness, the
// measurement-noise part) and kept for the others, so that a store this
// process cannot write is copied once to be read, not once per part
// (groundtruth.OpenToRead). With a remote Executor (services.executor)
// there is no store to open: store returns nil. Not safe for concurrent
// use; the parts run one after the other.
type reportGroundTruth struct {
	cfg    *orchestrator.Config
	env    Env
	opened bool
	st     groundtruth.Store
	close  func() error
	err    error
}

// store opens the store the first time and returns it, or why it cannot
// be read, every time.
func (g *reportGroundTruth) store(ctx context.Context) (groundtruth.Store, error) {
	if !g.opened {
		g.opened = true
		g.st, g.close, g.err = openReportGroundTruth(ctx, g.cfg, g.env)
	}
	return g.st, g.err
}

// Close closes the store if it was opened.
func (g *reportGroundTruth) Close() error {
	if g.close == nil {
		return nil
	}
	return g.close()
}

// openReportGroundTruth opens cfg's ground-truth store to read; a local
// store that does not exist is an error, not a new empty store.
func openReportGroundTruth(ctx context.Context, cfg *orchestrator.Config, env Env) (groundtruth.Store, func() error, error) {
	if cfg.Services.Executor == "" && fileAbsent(cfg.Path(cfg.GroundTruthStore)) {
		p, _ := isStorePath(cfg.Path(cfg.GroundTruthStore))
		return nil, nil, fmt.Errorf("the ground-truth store %s does not exist", p)
	}
	return openGroundTruthToRead(ctx, cfg, env)
}
