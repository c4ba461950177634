package orchestrator

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/planning/prompts"
	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/protocol/pools"
	"github.com/triage-eval/triage/internal/runs/report"
	"github.com/triage-eval/triage/internal/store/problems"
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
	store    *RunStore
	now      func() time.Time
	progress *Progress
}

// NewRunner returns a runner; progress may be nil.
func NewRunner(cfg *Config, clients Clients, store *RunStore, now func() time.Time, progress *Progress) *Runner {
	if progress == nil {
		progress = &Progress{}
	}
	progress.start = now()
	return &Runner{cfg: cfg, clients: clients, store: store, now: now, progress: progress}
}

// group is one (solver, pool): the cells that share its references.
type group struct {
	solver  Solver
	dataset string
	pool    pools.Pool
	items   []*triagev1.GroundTruthItem // the solver's gradeable items, pool order
	texts   map[string]problems.Problem
	once    sync.Once
	refs    map[float64]*triagev1.BudgetReferences
	refsErr error
}

// cell is one plan to make and score.
type cell struct {
	g        *group
	alpha    float64
	strategy string
	variant  string
}

func (c cell) key() string {
	return CellKey(c.g.solver, c.g.dataset, c.g.pool.Index, c.alpha, c.strategy, c.variant)
}

// CellKey is the run store's key of one cell.
func CellKey(s Solver, dataset string, pool int, alpha float64, strategy, variant string) string {
	return fmt.Sprintf("%s|%s|%s|%04d|%g|%s|%s", s.Model, s.Mode, dataset, pool, alpha, strategy, variant)
}

// Run executes every cell not yet stored. It returns the first error that
// stops the run (a storage failure, a cancelled context); a failing planner
// or an unparseable plan is a result, recorded and excluded, not an error.
func (r *Runner) Run(ctx context.Context) error {
	probs, err := r.cfg.LoadProblems()
	if err != nil {
		return err
	}
	datasets := r.cfg.SelectedDatasets(probs)
	partitions := map[string][]pools.Pool{}
	for _, d := range datasets {
		ids := make([]string, 0, len(probs[d]))
		for id := range probs[d] {
			ids = append(ids, id)
		}
		ps, err := pools.Partition(d, ids, r.cfg.PoolSize, r.cfg.PartitionSeed)
		if err != nil {
			return fmt.Errorf("partition %s: %w", d, err)
		}
		partitions[d] = ps
	}
	cfgJSON, _ := json.Marshal(r.cfg)
	poolsJSON, _ := json.Marshal(partitions)
	if err := r.store.SaveManifest(ctx, cfgJSON, poolsJSON); err != nil {
		return err
	}
	if err := r.importGroundTruth(ctx); err != nil {
		return err
	}
	var cells []cell
	for _, s := range r.cfg.Solvers {
		for _, d := range datasets {
			truth, err := r.groundTruth(ctx, s, d)
			if err != nil {
				return err
			}
			if err := r.saveAccuracy(ctx, s, d, truth); err != nil {
				return err
			}
			for _, p := range partitions[d] {
				g := &group{solver: s, dataset: d, pool: p, texts: probs[d]}
				for _, id := range p.ProblemIDs {
					if rec, ok := truth[id]; ok && rec.GetGradeable() {
						g.items = append(g.items, &triagev1.GroundTruthItem{Id: id, Cost: rec.GetCost(), Correct: rec.GetCorrect(), Value: valueOf(probs[d][id])})
					}
				}
				cells = append(cells, r.cellsOf(g)...)
			}
		}
	}
	done, err := r.store.Done(ctx)
	if err != nil {
		return err
	}
	r.progress.Total.Store(int64(len(cells)))
	jobs := make(chan cell)
	errs := make(chan error, r.cfg.Concurrency)
	var wg sync.WaitGroup
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for range r.cfg.Concurrency {
		wg.Go(func() {
			for c := range jobs {
				if err := r.runCell(ctx, c); err != nil {
					errs <- err
					cancel()
					return
				}
				r.progress.Done.Add(1)
			}
		})
	}
feed:
	for _, c := range cells {
		if done[c.key()] {
			r.progress.Done.Add(1)
			r.progress.Skipped.Add(1)
			continue
		}
		select {
		case jobs <- c:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	return ctx.Err()
}

func (r *Runner) cellsOf(g *group) []cell {
	var out []cell
	for _, a := range r.cfg.Alphas {
		for _, s := range r.cfg.Strategies {
			if s != StrategyLLM {
				out = append(out, cell{g: g, alpha: a, strategy: s, variant: "-"})
				continue
			}
			for _, v := range r.cfg.Variants {
				out = append(out, cell{g: g, alpha: a, strategy: s, variant: v})
			}
		}
	}
	return out
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
	refs, err := c.g.references(ctx, r.clients.Oracle, r.cfg)
	if err != nil {
		return err
	}
	ref := refs[c.alpha]
	budget := ref.GetBudget()
	base := report.ScoreRecord{
		Model: c.g.solver.Model, Mode: c.g.solver.Mode, Dataset: c.g.dataset, Pool: c.g.pool.Index,
		Alpha: c.alpha, Variant: c.variant, Strategy: c.strategy,
		Oracle: ref.GetOracle().GetValue(), Random: ref.GetRandom().GetMean(), PoolSize: len(c.g.items),
	}
	plan, err := r.clients.Planner.CreatePlan(ctx, r.planRequest(c, budget))
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		r.progress.Errors.Add(1)
		return r.save(ctx, c, nil, "error", err.Error(), base)
	}
	if c.strategy == StrategyLLM {
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
	var recs []report.ScoreRecord
	for _, res := range exec.GetResults() {
		rec := base
		rec.Regime = "U"
		if res.GetRegime() == triagev1.Regime_REGIME_ENFORCED {
			rec.Regime = "E"
		}
		rec.Value = res.GetValue()
		rec.Eta = metrics.Eta(rec.Value, rec.Oracle, rec.Random)
		rec.Regret, rec.RegretDefined = metrics.Regret(rec.Value, rec.Oracle)
		recs = append(recs, rec)
	}
	return r.saveScores(ctx, c, plan, "", "", recs)
}

// save stores an excluded cell: one record per regime, marked excluded.
func (r *Runner) save(ctx context.Context, c cell, plan *triagev1.CreatePlanResponse, excluded, detail string, base report.ScoreRecord) error {
	var recs []report.ScoreRecord
	for _, regime := range r.cfg.Regimes {
		rec := base
		rec.Regime, rec.Excluded, rec.Detail = regime, excluded, detail
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
	// The outcome is stored even if the run is being stopped: it is complete.
	return r.store.SaveCell(context.WithoutCancel(ctx), c.key(), raw, excluded, detail, r.now().UnixMicro(), recs)
}

func (r *Runner) planRequest(c cell, budget int64) *triagev1.CreatePlanRequest {
	req := &triagev1.CreatePlanRequest{Budget: budget, Domain: prompts.DomainLabel(c.g.dataset), Seed: r.cfg.StrategySeed}
	for _, it := range c.g.items {
		p := c.g.texts[it.GetId()]
		req.Problems = append(req.Problems, &triagev1.PlannerProblem{Id: p.ID, Text: p.Text, Value: valueOf(p)})
	}
	switch c.strategy {
	case StrategyLLM:
		req.Strategy = triagev1.PlannerStrategy_PLANNER_STRATEGY_LLM
		req.Endpoint = &triagev1.CreatePlanRequest_EndpointName{EndpointName: c.g.solver.Endpoint}
		req.Variant = variantProto[c.variant]
	case StrategyRandom:
		req.Strategy = triagev1.PlannerStrategy_PLANNER_STRATEGY_RANDOM
	case StrategyShortestFirst:
		req.Strategy = triagev1.PlannerStrategy_PLANNER_STRATEGY_SHORTEST_FIRST
	default:
		req.Strategy = triagev1.PlannerStrategy_PLANNER_STRATEGY_ALL_IN_ORDER
	}
	return req
}

// regimes returns the configured regimes for the Executor.
func (r *Runner) regimes() []triagev1.Regime {
	out := make([]triagev1.Regime, len(r.cfg.Regimes))
	for i, g := range r.cfg.Regimes {
		out[i] = triagev1.Regime_REGIME_ADVISORY
		if g == "E" {
			out[i] = triagev1.Regime_REGIME_ENFORCED
		}
	}
	return out
}

var variantProto = map[string]triagev1.PromptVariant{
	"default": triagev1.PromptVariant_PROMPT_VARIANT_DEFAULT,
	"A":       triagev1.PromptVariant_PROMPT_VARIANT_NEUTRAL,
	"B":       triagev1.PromptVariant_PROMPT_VARIANT_AGENT,
	"C":       triagev1.PromptVariant_PROMPT_VARIANT_EXAM,
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
