package orchestrator

import (
	"context"
	"time"

	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/runs/work"
	"github.com/triage-eval/triage/internal/store/runstore"
)

// The grid's cells are a source of work: a cell is a work.Unit, runCell
// its work, and the run store (CellUnits) its store.

// Key is the cell's key in the run store.
func (c cell) Key() string { return c.key() }

// Fingerprint is the fingerprint of the cell's inputs (SPEC §5).
func (c cell) Fingerprint() string { return c.fingerprint }

// saveLinger is how long computed cells wait for others to be stored with
// them in one write: short next to a model call, long enough to gather the
// cells of a busy run.
const saveLinger = 10 * time.Millisecond

// runCells computes cells with the configured concurrency, sharing them
// with any other worker of the run (work.Run). A computed cell's outcome
// goes to the run store in the background, with the others computed
// meanwhile (work.Group), and storing it releases its claim. Progress
// counts the cells the whole run has stored: those this worker stored or
// found stored.
func (r *Runner) runCells(ctx context.Context, cells []cell) error {
	saver, err := r.store.CellSaver(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = saver.Close() }() // statements only read
	// The outcomes are stored even if the run is being stopped: they are
	// complete (but a stopping run does not wait out a store outage). A
	// save of several cells is one write, so the group waits a little to
	// fill: cells end apart when the model's latency spreads them.
	r.saves = work.NewGroup(runstore.CompleteEvenIfStopping(ctx), r.cfg.Concurrency, saveLinger, func(ctx context.Context, saves []*cellSave) error {
		return r.storeCells(ctx, saver, saves)
	})
	opts := work.Options{Concurrency: r.cfg.Concurrency, Leases: r.leases, Progress: r.progress, StoringReleases: true, Ahead: r.prepare, Stop: r.opts.Stop}
	err = work.Run(ctx, opts, cells, func(ctx context.Context, batch []cell) error {
		return r.runCell(ctx, batch[0])
	})
	if serr := r.saves.Wait(); err == nil {
		err = serr
	}
	return err
}

// prepare computes the references of the groups of cells this worker
// claimed (work.Options.Ahead), one group after another, while the cells
// claimed before them run: the cells of a group share its references
// (group.references, computed once), and without this every cell of a
// group would wait for the first to compute them, a slot of the run's
// concurrency idle each. An error is kept with the group for its cells.
func (r *Runner) prepare(ctx context.Context, units []work.Unit) {
	var last *group
	for _, u := range units {
		c := u.(cell)
		if c.g == last || len(c.g.items) == 0 {
			continue
		}
		last = c.g
		_, _ = c.g.references(ctx, r.clients.Oracle, r.cfg)
	}
}

// cellSave is one cell's outcome on its way to the run store.
type cellSave struct {
	outcome  runstore.CellOutcome
	strategy vocab.Strategy
}

// storeCells stores the outcomes of cells that finished together
// (Runner.saves).
func (r *Runner) storeCells(ctx context.Context, saver *runstore.CellSaver, saves []*cellSave) error {
	outcomes := make([]runstore.CellOutcome, len(saves))
	for i, s := range saves {
		outcomes[i] = s.outcome
	}
	stored, err := saver.Save(ctx, r.leases.Worker(), outcomes)
	if err != nil {
		return err
	}
	// Every cell saved is done; the metric counts those this worker stored,
	// not those another worker stored first (its lease on the cell had
	// ended: this outcome is dropped, each cell is stored once).
	r.progress.Done.Add(int64(len(saves)))
	for _, s := range saves {
		if stored[s.outcome.Key] {
			r.metrics.stored(ctx, s.strategy, s.outcome.Excluded)
		}
	}
	return nil
}
