package orchestrator

import (
	"context"

	"github.com/triage-eval/triage/internal/runs/work"
)

// The grid's cells are a source of work: a cell is a work.Unit, runCell
// its work, and the run store (RunStore.CellUnits) its store.

// Key is the cell's key in the run store.
func (c cell) Key() string { return c.key() }

// Fingerprint is the fingerprint of the cell's inputs (SPEC §5).
func (c cell) Fingerprint() string { return c.fingerprint }

// runCells computes cells with the configured concurrency, sharing them
// with any other worker of the run (work.Run): storing a cell releases its
// claim. Progress counts the cells the whole run has stored: those this
// worker stored or found stored.
func (r *Runner) runCells(ctx context.Context, cells []cell) error {
	saver, err := r.store.CellSaver(ctx)
	if err != nil {
		return err
	}
	defer saver.Close()
	r.saves = work.NewGroup(func(ctx context.Context, saves []*cellSave) error {
		return r.storeCells(ctx, saver, saves)
	})
	opts := work.Options{Concurrency: r.cfg.Concurrency, Leases: r.leases, Progress: r.progress, StoringReleases: true}
	return work.Run(ctx, opts, cells, func(ctx context.Context, batch []cell) error {
		return r.runCell(ctx, batch[0])
	})
}

// cellSave is one cell's outcome on its way to the run store; stored says,
// once saved, whether it was stored (not another worker's first).
type cellSave struct {
	outcome CellOutcome
	stored  bool
}

// storeCells stores the outcomes of cells that finished together
// (Runner.saves).
func (r *Runner) storeCells(ctx context.Context, saver *CellSaver, saves []*cellSave) error {
	outcomes := make([]CellOutcome, len(saves))
	for i, s := range saves {
		outcomes[i] = s.outcome
	}
	stored, err := saver.Save(ctx, r.leases.Worker(), outcomes)
	if err != nil {
		return err
	}
	for _, s := range saves {
		s.stored = stored[s.outcome.Key]
	}
	return nil
}
