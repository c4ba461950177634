package orchestrator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/metric"
	"google.golang.org/protobuf/encoding/protojson"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/planning/prompts"
	"github.com/triage-eval/triage/internal/platform/protoconv"
	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/planscore"
	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/runs/report"
	"github.com/triage-eval/triage/internal/store/problems"
	"github.com/triage-eval/triage/internal/store/runstore"
)

// Clients are the services a run composes.
type Clients struct {
	Planner  triagev1.PlannerServiceClient
	Executor triagev1.ExecutorServiceClient
	Oracle   triagev1.OracleServiceClient
}

// Runner runs one config's grid.
type Runner struct {
	cfg      *Config
	clients  Clients
	store    runstore.Store
	now      func() time.Time
	progress *Progress
	opts     Options
	leases   *Leases
	metrics  cellMetrics
	// plannerCalls counts the llm strategy's CreatePlan calls made by this
	// process, plannerFailures those that failed.
	plannerCalls    atomic.Int64
	plannerFailures CallFailures
}

// Options adjust how a run resumes and shares its work.
type Options struct {
	// KeepErrors leaves cells stored as "error" (a failed planner call) as
	// they are instead of retrying them.
	KeepErrors bool
	// Worker names this worker in a run shared by several processes; empty
	// means a fresh identity (NewWorkerID).
	Worker string
	// Lease is how long this worker holds a cell without renewing it
	// (DefaultLease when 0); a dead worker's cells are taken over after it.
	Lease time.Duration
	// MeterProvider records triage.run.cells (metrics.go); nil records
	// nothing.
	MeterProvider metric.MeterProvider
}

// NewRunner returns a runner; progress may be nil.
func NewRunner(cfg *Config, clients Clients, store runstore.Store, now func() time.Time, progress *Progress, opts Options) *Runner {
	if progress == nil {
		progress = &Progress{}
	}
	progress.Start(now())
	return &Runner{cfg: cfg, clients: clients, store: store, now: now, progress: progress, opts: opts,
		leases: NewLeases(store, opts.Worker, opts.Lease, now), metrics: newCellMetrics(opts.MeterProvider)}
}

// Run executes every cell of the grid that is not stored fresh: new cells,
// cells whose inputs changed since they were stored (stale, SPEC §5) and,
// unless Options.KeepErrors, cells whose planner call failed. Before any
// model call it checks that the services answer, that every solver's
// endpoint exists and that every (solver, dataset) has gradeable ground
// truth, and returns a *PreflightError listing every problem found. It
// returns the first error that stops the run (a storage failure, a
// cancelled context); a failing planner or an unparseable plan is a result,
// recorded and excluded, not an error — unless every planner call of the
// llm strategy failed: then the run measured nothing and Run returns a
// *CallsFailedError (PlannerWarning says when only some did).
func (r *Runner) Run(ctx context.Context) error {
	if problems := r.checkServices(ctx); len(problems) > 0 {
		return &PreflightError{Problems: problems}
	}
	if err := r.importGroundTruth(ctx); err != nil {
		return err
	}
	endpoints, problems, err := r.checkEndpoints(ctx)
	if err != nil {
		return err
	}
	g, err := r.buildGrid(ctx, endpoints)
	if err != nil {
		return err
	}
	if problems = append(problems, g.problems...); len(problems) > 0 {
		return &PreflightError{Problems: problems}
	}
	cfgJSON, _ := json.Marshal(r.cfg)
	poolsJSON, _ := json.Marshal(runstore.Manifest{Partitions: g.partitions, Injected: g.injected})
	if err := r.store.SaveManifest(ctx, cfgJSON, poolsJSON); err != nil {
		return err
	}
	fingerprints := make(map[string]string, len(g.cells))
	for _, c := range g.cells {
		fingerprints[c.key()] = c.fingerprint
	}
	if err := r.store.SaveGrid(ctx, fingerprints, g.accuracy); err != nil {
		return err
	}
	todo, err := r.schedule(ctx, g.cells)
	if err != nil {
		return err
	}
	if err := r.runCells(ctx, todo); err != nil {
		return err
	}
	_, err = r.plannerFailures.Outcome("planner calls", int(r.plannerCalls.Load()), "")
	return err
}

// PlannerWarning says, after Run, how many of this process's planner calls
// failed and why, and that retry tries them again; "" when none failed or
// all did (Run's error).
func (r *Runner) PlannerWarning(retry string) string {
	warning, _ := r.plannerFailures.Outcome("planner calls", int(r.plannerCalls.Load()), retry)
	return warning
}

// schedule returns the cells to compute and counts the others as resumed.
func (r *Runner) schedule(ctx context.Context, cells []cell) ([]cell, error) {
	stored, err := r.store.Cells(ctx)
	if err != nil {
		return nil, err
	}
	r.progress.Total.Store(int64(len(cells)))
	var todo []cell
	for _, c := range cells {
		st, ok := stored[c.key()]
		switch {
		case !ok:
		case st.Fingerprint != c.fingerprint:
			r.progress.Stale.Add(1)
		case st.Excluded == string(metrics.ExcludedError) && !r.opts.KeepErrors:
			r.progress.Retried.Add(1)
		default:
			r.progress.Skipped.Add(1)
			continue
		}
		todo = append(todo, c)
	}
	return todo, nil
}

// runCells computes cells with the configured concurrency, sharing them
// with any other worker of the run: each cell is claimed first (Claim), so
// that no two workers compute it; a cell another worker holds is left to it
// and looked at again after a pause, until it is stored or its holder's
// lease ends and this worker takes it over. Progress counts the cells the
// whole run has stored.
func (r *Runner) runCells(ctx context.Context, cells []cell) error {
	stopWatch := r.watchProgress(ctx)
	defer stopWatch()
	waiting, err := r.pass(ctx, Rotate(r.leases, cells))
	pause, tookOver := r.leases.NewPause(), false
	for err == nil && len(waiting) > 0 {
		if err = pause.Wait(ctx, tookOver); err != nil {
			break
		}
		var retry, held []cell
		if retry, waiting, err = r.claimable(ctx, waiting); err != nil {
			break
		}
		tookOver = len(retry) > 0
		held, err = r.pass(ctx, retry)
		waiting = append(waiting, held...)
	}
	if err != nil {
		return err
	}
	return ctx.Err()
}

// claimable splits the cells other workers held into those to offer again
// (retry: their holder's lease ended) and those still held; cells stored
// fresh meanwhile are in neither.
func (r *Runner) claimable(ctx context.Context, waiting []cell) (retry, still []cell, err error) {
	stored, err := r.store.Cells(ctx)
	if err != nil {
		return nil, nil, err
	}
	keys := make([]string, len(waiting))
	for i, c := range waiting {
		keys[i] = c.key()
	}
	claimable, err := r.leases.Claimable(ctx, keys)
	if err != nil {
		return nil, nil, err
	}
	for _, c := range waiting {
		switch {
		case stored[c.key()].Fresh(c.fingerprint):
		case claimable[c.key()]:
			retry = append(retry, c)
		default:
			still = append(still, c)
		}
	}
	return retry, still, nil
}

// pass offers every cell once to the workers and returns those other
// workers held or stored meanwhile. Cells are claimed a few at a time, one
// round trip for each batch (runstore.Store.ClaimCells), as workers free up: a
// worker's time goes to cells it computes, not to asking for cells other
// workers have.
func (r *Runner) pass(ctx context.Context, cells []cell) ([]cell, error) {
	type job struct {
		c    cell
		done func()
	}
	jobs := make(chan job)
	errs := make(chan error, r.cfg.Concurrency+1)
	var (
		wg      sync.WaitGroup
		waiting []cell
	)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for range r.cfg.Concurrency {
		wg.Go(func() {
			for j := range jobs {
				if err := r.runClaimed(ctx, j.c, j.done); err != nil {
					errs <- err
					cancel()
					return
				}
			}
		})
	}
	batch := max(1, r.cfg.Concurrency/4)
feed:
	for start := 0; start < len(cells); start += batch {
		part := cells[start:min(start+batch, len(cells))]
		keys, fps := make([]string, len(part)), make([]string, len(part))
		for i, c := range part {
			keys[i], fps[i] = c.key(), c.fingerprint
		}
		dones, err := r.leases.TakeCells(ctx, keys, fps)
		if err != nil {
			errs <- err
			cancel()
			break
		}
		for i, c := range part {
			if dones[i] == nil {
				waiting = append(waiting, c)
				continue
			}
			select {
			case jobs <- job{c, dones[i]}:
			case <-ctx.Done():
				// Stopping: the cells claimed but not started go back.
				for k, done := range dones[i:] {
					if done != nil {
						done()
						_ = r.leases.Release(ctx, keys[i+k]) // a lease left behind ends on its own
					}
				}
				break feed
			}
		}
	}
	close(jobs)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return nil, err
	}
	return waiting, ctx.Err()
}

// runClaimed computes c, which this worker has claimed; done stops
// renewing the claim. Storing the cell releases the claim; a failure
// releases it for another attempt.
func (r *Runner) runClaimed(ctx context.Context, c cell, done func()) error {
	defer done()
	if err := r.runCell(ctx, c); err != nil {
		// A store known to be gone cannot release the claim either; its
		// lease ends on its own.
		var gone *runstore.UnreachableError
		if rerr := r.leases.Release(ctx, c.key()); rerr != nil && !errors.As(err, &gone) {
			return errors.Join(err, rerr)
		}
		return err
	}
	return nil
}

// watchProgress sets the progress's Done from the run store every second,
// and once more when stopped: the cells the whole run has stored.
func (r *Runner) watchProgress(ctx context.Context) (stop func()) {
	update := func() {
		if n, err := r.store.CountDone(context.WithoutCancel(ctx)); err == nil {
			r.progress.Done.Store(n)
		}
	}
	quit, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				update()
			}
		}
	}()
	return func() { close(quit); <-finished; update() }
}

// references computes the group's oracle and random references for every α
// in one call, once.
func (g *group) references(ctx context.Context, oracle triagev1.OracleServiceClient, cfg *Config) (map[float64]*triagev1.BudgetReferences, error) {
	g.once.Do(func() {
		req := &triagev1.ComputeReferencesRequest{Items: g.items, Random: &triagev1.RandomReferenceOptions{Samples: cfg.Random.Samples, Seed: cfg.Random.Seed}}
		if cfg.Random.Method == "exact" {
			req.Random = &triagev1.RandomReferenceOptions{Method: triagev1.RandomMethod_RANDOM_METHOD_EXACT}
		}
		for _, a := range cfg.Alphas {
			req.Budgets = append(req.Budgets, &triagev1.Budget{Kind: &triagev1.Budget_Alpha{Alpha: a}})
		}
		resp, err := oracle.ComputeReferences(ctx, req)
		if err != nil {
			g.refsErr = fmt.Errorf("references for %s/%s %s pool %d: %w", g.solver.Model, g.solver.Mode, g.dataset, g.pool.Index, err)
			return
		}
		g.refs = map[float64]*triagev1.BudgetReferences{}
		for i, a := range cfg.Alphas {
			g.refs[a] = resp.GetReferences()[i]
		}
	})
	return g.refs, g.refsErr
}

// runCell plans, executes and scores one cell and stores the outcome.
func (r *Runner) runCell(ctx context.Context, c cell) error {
	base := report.ScoreRecord{
		Model: c.g.solver.Model, Mode: c.g.solver.Mode, Dataset: c.g.dataset, Pool: c.g.pool.Index,
		Alpha: c.alpha, Variant: string(c.variant), Strategy: string(c.strategy), PoolSize: len(c.g.items),
		Dropped: len(c.g.ids()) - len(c.g.items), Short: c.g.pool.Short,
	}
	unsolvable := c.g.unsolvable()
	if c.g.inj != nil {
		ratio := c.g.inj.Ratio
		base.Source, base.Ratio = c.g.inj.Source, &ratio
		for _, u := range unsolvable {
			if u {
				base.Injected++
			}
		}
	}
	if len(c.g.items) == 0 {
		// Nothing to plan over: no call is made (SPEC §5 preflight).
		return r.save(ctx, c, nil, ExcludedEmptyPool, "no problem of the pool has gradeable ground truth for this solver", base)
	}
	refs, err := c.g.references(ctx, r.clients.Oracle, r.cfg)
	if err != nil {
		return err
	}
	ref := refs[c.alpha]
	budget := ref.GetBudget()
	base.Oracle, base.Random, base.RandomStderr, base.Budget = ref.GetOracle().GetValue(), ref.GetRandom().GetMean(), ref.GetRandom().GetStandardError(), budget
	plan, err := r.clients.Planner.CreatePlan(ctx, r.planRequest(c, budget))
	if c.strategy == vocab.LLM && ctx.Err() == nil {
		r.plannerCalls.Add(1)
		if err != nil {
			r.plannerFailures.Add(describeCallError(err))
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		r.progress.Errors.Add(1)
		return r.save(ctx, c, nil, string(metrics.ExcludedError), err.Error(), base)
	}
	if c.strategy == vocab.LLM {
		r.progress.LLMCalls.Add(1)
		if plan.GetCacheHit() {
			r.progress.CacheHits.Add(1)
		}
		r.progress.OutputTokens.Add(plan.GetUsage().GetOutputTokens())
	}
	if plan.GetParsed().GetStatus() == triagev1.ParseStatus_PARSE_STATUS_UNPARSEABLE {
		reason := "unparseable"
		if plan.GetTruncated() {
			reason = "truncated_unparseable"
		}
		return r.save(ctx, c, plan, reason, plan.GetParsed().GetParseError(), base)
	}
	// The pool goes inline: the runner already holds this solver's gradeable
	// items (read once per (solver, dataset) from the Executor's store), so
	// the Executor need not read them again for every cell.
	exec, err := r.clients.Executor.ExecutePlan(ctx, &triagev1.ExecutePlanRequest{
		Pool:      &triagev1.ExecutePlanRequest_Inline{Inline: &triagev1.InlinePool{Items: c.g.items}},
		Budget:    &triagev1.Budget{Kind: &triagev1.Budget_Tokens{Tokens: budget}},
		Plan:      plan.GetParsed().GetPlan(),
		Regimes:   r.regimes(),
		OmitTrace: true,
	})
	if err != nil {
		return fmt.Errorf("execute %s: %w", c.key(), err)
	}
	in := protoconv.ScoreInput(c.g.items, exec, ref)
	in.Unsolvable = unsolvable
	score := planscore.Score(in)
	base.Detection, base.Waste = score.Detection, score.Waste
	recs := make([]report.ScoreRecord, len(score.Regimes))
	for i, s := range score.Regimes {
		rec := base
		rec.Regime, rec.Value = string(s.Regime), s.Value
		eta := s.Eta
		rec.Eta, rec.Regret, rec.RegretDefined = &eta, s.Regret, s.RegretDefined
		recs[i] = rec
	}
	return r.saveScores(ctx, c, plan, "", "", recs)
}

// unsolvable marks, item for item, the group's gradeable items that are
// injected unsolvable items (U of SPEC §5); nil for a plain pool.
func (g *group) unsolvable() []bool {
	if g.inj == nil {
		return nil
	}
	injected := make(map[string]bool, len(g.inj.ProblemIDs))
	for i, id := range g.inj.ProblemIDs {
		if g.inj.Injected[i] {
			injected[id] = true
		}
	}
	out := make([]bool, len(g.items))
	for i, it := range g.items {
		out[i] = injected[it.GetId()]
	}
	return out
}

// save stores an excluded cell: one record per regime, marked excluded.
func (r *Runner) save(ctx context.Context, c cell, plan *triagev1.CreatePlanResponse, excluded, detail string, base report.ScoreRecord) error {
	var recs []report.ScoreRecord
	for _, regime := range r.cfg.Regimes {
		rec := base
		rec.Regime, rec.Excluded, rec.Detail = string(regime), excluded, detail
		recs = append(recs, rec)
	}
	return r.saveScores(ctx, c, plan, excluded, detail, recs)
}

func (r *Runner) saveScores(ctx context.Context, c cell, plan *triagev1.CreatePlanResponse, excluded, detail string, recs []report.ScoreRecord) error {
	var raw []byte
	if plan != nil {
		var err error
		if raw, err = protojson.Marshal(plan); err != nil {
			return err
		}
	}
	// The outcome is stored even if the run is being stopped: it is
	// complete (but a stopping run does not wait out a store outage for
	// it). When another worker stored the cell first (its lease on it had
	// ended), this outcome is dropped: each cell is stored once.
	stored, err := r.store.SaveCell(runstore.CompleteEvenIfStopping(ctx), c.key(), c.fingerprint, r.leases.Worker(), raw, excluded, detail, r.now().UnixMicro(), recs)
	if err != nil {
		return err
	}
	if stored {
		r.metrics.stored(ctx, c.strategy, excluded)
	}
	return nil
}

func (r *Runner) planRequest(c cell, budget int64) *triagev1.CreatePlanRequest {
	req := &triagev1.CreatePlanRequest{Budget: budget, Domain: prompts.DomainLabel(c.g.dataset), Seed: r.cfg.StrategySeed}
	for _, it := range c.g.items {
		p := c.g.texts[it.GetId()]
		req.Problems = append(req.Problems, &triagev1.PlannerProblem{Id: p.ID, Text: p.Text, Value: valueOf(p)})
	}
	req.Strategy = protoconv.StrategyProto(c.strategy)
	if c.strategy.UsesPrompt() {
		req.Endpoint = &triagev1.CreatePlanRequest_EndpointName{EndpointName: c.g.solver.Endpoint}
		req.Variant = protoconv.VariantProto(c.variant)
	}
	return req
}

// regimes returns the configured regimes for the Executor.
func (r *Runner) regimes() []triagev1.Regime {
	out := make([]triagev1.Regime, len(r.cfg.Regimes))
	for i, g := range r.cfg.Regimes {
		out[i] = protoconv.RegimeProto(g)
	}
	return out
}

func solverProto(s Solver) *triagev1.Solver {
	mode := triagev1.SolverMode_SOLVER_MODE_STANDARD
	if s.Mode == "extended" {
		mode = triagev1.SolverMode_SOLVER_MODE_EXTENDED
	}
	return &triagev1.Solver{Model: s.Model, Mode: mode}
}

func valueOf(p problems.Problem) *float64 {
	if p.Value == 0 {
		return nil
	}
	v := p.Value
	return &v
}
