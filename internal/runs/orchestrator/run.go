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
	"google.golang.org/protobuf/proto"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/planning/plancall"
	"github.com/triage-eval/triage/internal/planning/prompts"
	"github.com/triage-eval/triage/internal/platform/protoconv"
	"github.com/triage-eval/triage/internal/platform/version"
	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/planscore"
	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/runs/report"
	"github.com/triage-eval/triage/internal/runs/work"
	"github.com/triage-eval/triage/internal/store/problems"
	"github.com/triage-eval/triage/internal/store/runstore"
	"github.com/triage-eval/triage/internal/store/sqldb"
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
	progress *work.Progress
	opts     Options
	leases   *work.Leases
	// unusable says why the Planner cannot call an endpoint, by name
	// (checkEndpoints; ListEndpoints' unusable).
	unusable map[string]string
	// saves stores the cells' outcomes in the background, in groups
	// (work.Group); set by runCells.
	saves   *work.Group[*cellSave]
	metrics cellMetrics
	// plannerCalls counts the llm strategy's CreatePlan calls made by this
	// process, plannerFailures those that failed.
	plannerCalls    atomic.Int64
	plannerFailures CallFailures
	// plans counts the plans of those calls that could not be scored as
	// the model meant them (PlanWarning).
	plans planOutcomes
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
	// Spend, when not nil, records what each planner call costs and
	// enforces the config's spend cap (Ledger).
	Spend *Ledger
	// Version is the stamp stored with every record (SPEC §10: protocol,
	// SPEC revision, build); the zero value stores none.
	Version version.Stamp
	// Stop, when it closes, drains the run: the cells started finish and
	// are stored, no other cell starts, and Run returns work.ErrStopped
	// (work.Options.Stop). Nil never stops.
	Stop <-chan struct{}
	// Warn, when set, is told what the run waits for before it starts:
	// another worker's leases on a grid of another config (saveGrid).
	Warn func(msg string)
}

// NewRunner returns a runner; progress may be nil.
func NewRunner(cfg *Config, clients Clients, store runstore.Store, now func() time.Time, progress *work.Progress, opts Options) *Runner {
	if progress == nil {
		progress = &work.Progress{}
	}
	progress.Start(now())
	return &Runner{cfg: cfg, clients: clients, store: store, now: now, progress: progress, opts: opts,
		leases: work.NewLeases(CellUnits(store), opts.Worker, opts.Lease, now), metrics: newCellMetrics(opts.MeterProvider)}
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
	in, err := r.readInputs(ctx)
	if err != nil {
		return err
	}
	g, err := r.fillGrid(ctx, in.layout, in.endpoints)
	if err != nil {
		return err
	}
	if problems := append(in.problems, g.problems...); len(problems) > 0 {
		return &PreflightError{Problems: problems}
	}
	// The grid first: it is refused, before anything is written, while
	// another worker runs the store with another config.
	fingerprints := make(map[string]string, len(g.cells))
	for _, c := range g.cells {
		fingerprints[c.key()] = c.fingerprint
	}
	if err := r.saveGrid(ctx, fingerprints, g.accuracy); err != nil {
		return err
	}
	cfgJSON, _ := json.Marshal(recordedConfig(r.cfg))
	poolsJSON, _ := json.Marshal(runstore.Manifest{Partitions: g.partitions, Injected: g.injected})
	if err := r.store.SaveManifest(ctx, cfgJSON, poolsJSON); err != nil {
		return err
	}
	if in.storedErr != nil {
		return in.storedErr
	}
	todo := r.schedule(g.cells, in.stored)
	if problems := r.unusableEndpoints(todo); len(problems) > 0 {
		return &PreflightError{Problems: problems}
	}
	if err := r.runCells(ctx, todo); err != nil {
		return err
	}
	_, err = r.plannerFailures.Outcome("planner calls", int(r.plannerCalls.Load()), "")
	return err
}

// inputs is what a run reads before it lays out its cells.
type inputs struct {
	endpoints map[string]EndpointInfo
	// problems are the endpoints' problems that stop the run (preflight).
	problems []string
	layout   *layout
	// stored are the cells stored already, by key (Store.Cells), or the
	// error that kept them from being read, met after the preflight.
	stored    map[string]runstore.StoredCell
	storedErr error
}

// readInputs imports the ground truth and, meanwhile, reads what needs none
// of it: the Planner's endpoints, the problems and their pools, and the
// cells stored already (other tables than those the run then writes before
// its first cell), so that they add nothing to the time before the first
// cell. The error is the first of the import's, the endpoints' and the
// problems', in that order, as when they were read one after another.
func (r *Runner) readInputs(ctx context.Context) (*inputs, error) {
	sideCtx, stop := context.WithCancel(ctx)
	defer stop()
	in := &inputs{}
	var endpointsErr, layoutErr error
	var wg sync.WaitGroup
	wg.Go(func() { in.endpoints, in.problems, endpointsErr = r.checkEndpoints(sideCtx) })
	wg.Go(func() { in.layout, layoutErr = r.layOut() })
	wg.Go(func() { in.stored, in.storedErr = r.store.Cells(sideCtx) })
	importErr := r.importGroundTruth(ctx)
	if importErr != nil {
		stop()
	}
	wg.Wait()
	for _, err := range []error{importErr, endpointsErr, layoutErr} {
		if err != nil {
			return nil, err
		}
	}
	return in, nil
}

// PlannerWarning says, after Run, how many of this process's planner calls
// failed and why, and that retry tries them again; "" when none failed or
// all did (Run's error).
func (r *Runner) PlannerWarning(retry string) string {
	warning, _ := r.plannerFailures.Outcome("planner calls", int(r.plannerCalls.Load()), retry)
	return warning
}

// schedule returns the cells to compute, given the cells stored when the
// run started, and counts the others as resumed.
func (r *Runner) schedule(cells []cell, stored map[string]runstore.StoredCell) []cell {
	r.progress.Total.Store(int64(len(cells)))
	var todo []cell
	for _, c := range cells {
		switch r.state(c, stored) {
		case cellStale:
			r.progress.Stale.Add(1)
		case cellFailed:
			r.progress.Retried.Add(1)
		case cellDone:
			r.progress.Skipped.Add(1)
			r.progress.Done.Add(1)
			continue
		}
		todo = append(todo, c)
	}
	return todo
}

// cellState is what a run finds of a cell in its store.
type cellState int

const (
	// cellNew is not stored.
	cellNew cellState = iota
	// cellStale is stored with other inputs (another fingerprint).
	cellStale
	// cellFailed is stored as a planner error, retried unless
	// Options.KeepErrors.
	cellFailed
	// cellDone is stored fresh: the run skips it.
	cellDone
)

// state is c's cellState in stored.
func (r *Runner) state(c cell, stored map[string]runstore.StoredCell) cellState {
	st, ok := stored[c.key()]
	switch {
	case !ok:
		return cellNew
	case st.Fingerprint != c.fingerprint:
		return cellStale
	case st.Excluded == string(metrics.ExcludedError) && !r.opts.KeepErrors:
		return cellFailed
	}
	return cellDone
}

// references computes the group's oracle and random references for every α
// in one call, once; with its population, the same call returns the
// partial-information reference plans or says there is no population
// (g.noPopulation).
func (g *group) references(ctx context.Context, oracle triagev1.OracleServiceClient, cfg *Config) (map[float64]*triagev1.BudgetReferences, error) {
	g.once.Do(func() {
		req := &triagev1.ComputeReferencesRequest{Items: g.items, Random: &triagev1.RandomReferenceOptions{Samples: cfg.Random.Samples, Seed: cfg.Random.Seed}}
		if cfg.Random.Method == "exact" {
			req.Random = &triagev1.RandomReferenceOptions{Method: triagev1.RandomMethod_RANDOM_METHOD_EXACT}
		}
		for _, a := range cfg.Alphas {
			req.Budgets = append(req.Budgets, &triagev1.Budget{Kind: &triagev1.Budget_Alpha{Alpha: a}})
		}
		if g.population != nil {
			req.Population = g.populationProto()
		}
		resp, err := oracle.ComputeReferences(ctx, req)
		if err != nil {
			g.refsErr = fmt.Errorf("references for %s/%s %s pool %d: %w", g.solver.Model, g.solver.Mode, g.dataset, g.pool.Index, err)
			return
		}
		g.noPopulation = resp.GetNoPopulation()
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
	if r.opts.Version != (version.Stamp{}) {
		base.Version = &r.opts.Version
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
	if c.strategy.PartialReference() {
		return r.runReference(ctx, c, ref, base)
	}
	req := r.planRequest(c, budget)
	hold, err := r.reservePlan(ctx, c, req)
	if err != nil {
		return err
	}
	plan, err := r.clients.Planner.CreatePlan(ctx, req)
	if err := r.settlePlan(ctx, hold, plan, err); err != nil {
		return err
	}
	if err != nil && ctx.Err() == nil && work.Stopping(r.opts.Stop) && StopOutcome(err) {
		// Queued for its endpoint's concurrency slot when the run was asked
		// to stop, the call was not sent (planner.Config.Drain): the cell
		// is left for the next run, as one not started.
		return fmt.Errorf("%s: %w", c.key(), work.ErrStopped)
	}
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
		r.plans.answered.Add(1)
		r.progress.LLMCalls.Add(1)
		if plan.GetCacheHit() {
			r.progress.CacheHits.Add(1)
		}
		r.progress.OutputTokens.Add(plan.GetUsage().GetOutputTokens())
	}
	if plan.GetParsed().GetStatus() == triagev1.ParseStatus_PARSE_STATUS_UNPARSEABLE {
		reason := "unparseable"
		r.plans.unparseable.Add(1)
		if plan.GetTruncated() {
			reason = "truncated_unparseable"
			r.plans.truncated.Add(1)
		}
		return r.save(ctx, c, plan, reason, plan.GetParsed().GetParseError(), base)
	}
	if c.strategy == vocab.LLM && len(plan.GetParsed().GetPlan()) == 0 && len(plan.GetParsed().GetDroppedSteps()) > 0 {
		r.plans.emptied.Add(1)
	}
	return r.executeAndScore(ctx, c, ref, plan.GetParsed().GetPlan(), plan, base)
}

// reservePlan reserves the planner call of an llm cell with the spend
// ledger (Options.Spend); a *SpendCapError stops the run before it.
func (r *Runner) reservePlan(ctx context.Context, c cell, req *triagev1.CreatePlanRequest) (*Hold, error) {
	if c.strategy != vocab.LLM || r.opts.Spend == nil {
		return nil, nil
	}
	call, err := plancall.Of(req)
	if err != nil {
		return nil, fmt.Errorf("pricing %s: %w", c.key(), err)
	}
	return r.opts.Spend.Reserve(ctx, SpendPlanning, c.g.solver.Endpoint, c.key(), call)
}

// settlePlan settles a planner call's reservation from its usage, or
// releases it when the call failed (callErr).
func (r *Runner) settlePlan(ctx context.Context, hold *Hold, plan *triagev1.CreatePlanResponse, callErr error) error {
	if callErr != nil {
		return r.opts.Spend.Release(ctx, hold)
	}
	u := plan.GetUsage()
	return r.opts.Spend.Settle(ctx, hold, u.GetPromptTokens(), u.GetOutputTokens(), plan.GetCacheHit())
}

// runReference executes and scores a partial-information reference's plan
// (SPEC §4), which the Oracle computed with the group's references; the
// Planner is not asked. A solver whose population has graded no item of
// the pool has no plan: the cell is excluded as no_population.
func (r *Runner) runReference(ctx context.Context, c cell, ref *triagev1.BudgetReferences, base report.ScoreRecord) error {
	if c.g.noPopulation {
		return r.save(ctx, c, nil, string(metrics.ExcludedNoPopulation), "no other model of the run has gradeable ground truth for any item of the pool", base)
	}
	want := protoconv.PartialReferenceProto(c.strategy)
	for _, p := range ref.GetPartialReferences() {
		if p.GetReference() == want {
			return r.executeAndScore(ctx, c, ref, p.GetPlan(), p, base)
		}
	}
	return fmt.Errorf("references for %s: the Oracle returned no %s plan (is it older than the partial-information references?)", c.key(), c.strategy)
}

// executeAndScore executes steps under the run's regimes, scores them
// against ref and stores the cell with plan, what made the steps.
func (r *Runner) executeAndScore(ctx context.Context, c cell, ref *triagev1.BudgetReferences, steps []*triagev1.PlanStep, plan proto.Message, base report.ScoreRecord) error {
	// The pool goes inline: the runner already holds this solver's gradeable
	// items (read once per (solver, dataset) from the Executor's store), so
	// the Executor need not read them again for every cell.
	exec, err := r.clients.Executor.ExecutePlan(ctx, &triagev1.ExecutePlanRequest{
		Pool:      &triagev1.ExecutePlanRequest_Inline{Inline: &triagev1.InlinePool{Items: c.g.items}},
		Budget:    &triagev1.Budget{Kind: &triagev1.Budget_Tokens{Tokens: ref.GetBudget()}},
		Plan:      steps,
		Regimes:   r.regimes(),
		OmitTrace: true,
	})
	if err != nil {
		return fmt.Errorf("execute %s: %w", c.key(), err)
	}
	in := protoconv.ScoreInput(c.g.items, exec, ref)
	in.Unsolvable = c.g.unsolvable()
	score, err := planscore.Score(in)
	if err != nil {
		return fmt.Errorf("score %s: %w", c.key(), err)
	}
	base.Detection, base.Waste = score.Detection, score.Waste
	setLossesAndDiagnostics(&base, score)
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

// setLossesAndDiagnostics stores a plan's regret decomposition and
// diagnostics (SPEC §5) in its records.
func setLossesAndDiagnostics(rec *report.ScoreRecord, score planscore.Result) {
	if l := score.Losses; l != nil {
		vs, sel, ord, enf := score.PlannedValue, l.Selection, l.Order, l.Enforcement
		rec.PlannedValue, rec.Selection, rec.Order, rec.Enforcement = &vs, &sel, &ord, &enf
	}
	rec.Precision, rec.Recall, rec.CostForecast, rec.UnderAllocation = score.Precision, score.Recall, score.CostForecast, score.UnderAllocation
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
func (r *Runner) save(ctx context.Context, c cell, plan proto.Message, excluded, detail string, base report.ScoreRecord) error {
	var recs []report.ScoreRecord
	for _, regime := range r.cfg.Regimes {
		rec := base
		rec.Regime, rec.Excluded, rec.Detail = string(regime), excluded, detail
		recs = append(recs, rec)
	}
	return r.saveScores(ctx, c, plan, excluded, detail, recs)
}

// saveScores stores a cell's records with the plan that made them, as
// protojson: the Planner's CreatePlanResponse, or the Oracle's
// PartialReferencePlan for a partial-information reference (its
// "reference" field says so); none when plan is nil.
func (r *Runner) saveScores(ctx context.Context, c cell, plan proto.Message, excluded, detail string, recs []report.ScoreRecord) error {
	var raw []byte
	if plan != nil && plan.ProtoReflect().IsValid() {
		// Sized up front: the JSON of a plan (its prompt and raw output
		// escaped) is under twice its wire size, so the encoding grows no
		// buffer on the way.
		var err error
		raw, err = protojson.MarshalOptions{}.MarshalAppend(make([]byte, 0, 2*proto.Size(plan)), plan)
		if err != nil {
			return err
		}
	}
	return r.saves.Add(&cellSave{
		outcome:  runstore.CellOutcome{Key: c.key(), Fingerprint: c.fingerprint, Plan: raw, Excluded: excluded, Detail: detail, DoneAt: r.now().UnixMicro(), Scores: recs},
		strategy: c.strategy,
	})
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

// recordedConfig is cfg as the run store's manifest records it: a copy
// whose stores (run_store, ground_truth_store, llm_cache) have their
// passwords masked (sqldb.Redact), since whoever reads the run store would
// read them there. The run itself goes on with cfg's locations as given.
// Nothing compares the recorded config with a later run's (SaveManifest
// replaces it, and no cell's fingerprint holds a store), so a manifest
// written unmasked by an older build resumes the same.
func recordedConfig(cfg *Config) *Config {
	c := *cfg
	c.RunStore, c.GroundTruthStore, c.LLMCache = sqldb.Redact(c.RunStore), sqldb.Redact(c.GroundTruthStore), sqldb.Redact(c.LLMCache)
	return &c
}

// saveGrid records the grid (runstore.Store.SaveGrid). Refused because
// another worker holds cells of another grid, it waits once for that
// worker's claims to lapse — a dead worker's do, a live one renews them —
// and tries again, so that a run restarted with a changed config after a
// crash goes on, while two live workers with different configs do not.
func (r *Runner) saveGrid(ctx context.Context, fingerprints map[string]string, accuracy []runstore.Accuracy) error {
	err := r.store.SaveGrid(ctx, fingerprints, accuracy, runstore.GridSaver{Worker: r.leases.Worker(), Now: r.now()})
	var inUse *runstore.GridInUseError
	if !errors.As(err, &inUse) {
		return err
	}
	if r.opts.Warn != nil {
		r.opts.Warn(fmt.Sprintf("worker %s holds cells of this run store with another config until %s; waiting once for its leases to end (a stopped worker's do)",
			inUse.Worker, inUse.Until.UTC().Format(time.RFC3339)))
	}
	t := time.NewTimer(inUse.Until.Sub(r.now()) + 100*time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
		return ctx.Err()
	case <-r.opts.Stop:
		return err
	}
	return r.store.SaveGrid(ctx, fingerprints, accuracy, runstore.GridSaver{Worker: r.leases.Worker(), Now: r.now()})
}
