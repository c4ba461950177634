package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"golang.org/x/sync/errgroup"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/phase0/solving"
	"github.com/triage-eval/triage/internal/planning/plancall"
	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/runs/budgetaware"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/runs/quote"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/runstore"
	"github.com/triage-eval/triage/internal/store/sqldb"
	"github.com/triage-eval/triage/services/planner"
)

func runQuote(ctx context.Context, args []string, env Env) (err error) {
	fs := newFlagSet("quote", env.Stderr)
	asJSON := fs.Bool("json", false, "write the quote as JSON")
	rerun := fs.Bool("rerun", false, "quote what triage baseline --rerun costs: stored gradeable ground truth is solved again")
	keepUngradeable := fs.Bool("keep-ungradeable", false, "quote what triage baseline --keep-ungradeable costs")
	keepErrors := fs.Bool("keep-errors", false, "quote what triage run --keep-errors costs: cells whose planner call failed are not retried")
	dial := addDialFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: triage quote [flags] CONFIG.yaml\n\nStates, before any model call, what the config's study still costs: per\nphase (Phase 0 baseline, Phase 1 planning, budget-aware re-solve) and\nendpoint, the calls still to make after the response cache and resume, their\ninput tokens (estimated: bytes/4), the max_tokens bound of their output, the\noutput expected from Phase 0 costs, and dollars where endpoints.json gives\nprices. Calls no model. See docs/operations.md, \"Know the bill\".\n\nflags:\n")
		fs.PrintDefaults()
	}
	cfg, err := readConfigArg(fs, args, env)
	if cfg == nil || err != nil {
		return err
	}
	scratch, err := os.MkdirTemp("", "triage-quote-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(scratch) }() // only empty stores a quote made: nothing to report
	// A quote writes nothing of the study: a store that exists is opened
	// to read (another user's study, an archive, opens too), one that does
	// not is made empty in scratch.
	made, err := absentAsEmpty(ctx, cfg, scratch)
	if err != nil {
		return err
	}
	src := configSources(cfg)
	src.readCache = !made.cache
	llmCfg, closeCache, err := plannerConfig(ctx, src, env)
	if err != nil {
		return err
	}
	defer closeInto(&err, closeCache)
	openGT, openRS := openGroundTruthToRead, runstore.OpenToRead
	if made.groundTruth {
		openGT = openGroundTruth
	}
	if made.runStore {
		openRS = runstore.Open
	}
	st, closeStore, err := openGT(ctx, cfg, env)
	if err != nil {
		return err
	}
	defer closeInto(&err, closeStore)
	rs, err := openRS(ctx, cfg.Path(cfg.RunStore))
	if err != nil {
		return fmt.Errorf("%s: %w", cfg.Where("run_store"), err)
	}
	defer closeInto(&err, rs.Close)
	conns, err := connectNoCalls(cfg, llmCfg, st, dial, env)
	if err != nil {
		return err
	}
	defer closeInto(&err, conns.Close)
	exec := newListOnce(triagev1.NewExecutorServiceClient(conns.conns["executor"]))
	q, err := quoteRun(ctx, quoteDeps{
		cfg: cfg, runStore: rs, exec: exec, llm: llmCfg,
		planner:  triagev1.NewPlannerServiceClient(conns.conns["planner"]),
		baseline: orchestrator.BaselineOptions{Rerun: *rerun, KeepUngradeable: *keepUngradeable},
		run:      orchestrator.Options{KeepErrors: *keepErrors},
	})
	if err != nil {
		return err
	}
	if *asJSON {
		return quote.JSON(env.Stdout, q)
	}
	return quote.Text(env.Stdout, q)
}

// connectNoCalls connects cfg's Executor and Planner (in process over st
// and llmCfg, or the config's remote ones) for work that lays out or
// prices a grid and calls no model: the in-process Planner gets noKeys,
// so it needs no API key to render what it would send.
func connectNoCalls(cfg *orchestrator.Config, llmCfg planner.Config, st groundtruth.Store, dial *dialFlags, env Env) (*connections, error) {
	llmCfg.Getenv = noKeys
	deps := serviceDeps{now: time.Now, store: st, tel: env.Telemetry}
	if cfg.Services.Planner == "" {
		deps.planner = llmCfg
	}
	return connect([]string{"executor", "planner"},
		map[string]string{"executor": cfg.Services.Executor, "planner": cfg.Services.Planner}, dial, deps, env.Stderr)
}

// noKeys stands in for the environment where a quote builds clients: each
// variable an endpoint names reads as a placeholder key, never sent (a
// quote makes no call) and never part of a cache key.
func noKeys(string) string { return "quote-makes-no-call" }

// quoteDeps is what a quote reads.
type quoteDeps struct {
	cfg      *orchestrator.Config
	runStore runstore.Store
	exec     triagev1.ExecutorServiceClient
	planner  triagev1.PlannerServiceClient
	// llm holds the endpoints (with prices) and the response cache.
	llm      planner.Config
	baseline orchestrator.BaselineOptions
	run      orchestrator.Options
}

// quoteRun gathers the calls of every phase and adds them up.
func quoteRun(ctx context.Context, d quoteDeps) (quote.Quote, error) {
	var calls []quote.Call
	var notes []string
	baseline, n, err := baselineCalls(ctx, d)
	if err != nil {
		return quote.Quote{}, err
	}
	calls, notes = append(calls, baseline...), append(notes, n...)
	runner := orchestrator.NewRunner(d.cfg, orchestrator.Clients{Planner: d.planner, Executor: d.exec}, d.runStore, time.Now, nil, d.run)
	plans, err := runner.PendingPlans(ctx)
	if err != nil {
		return quote.Quote{}, err
	}
	reqs, err := plannerPrompts(ctx, plans)
	if err != nil {
		return quote.Quote{}, err
	}
	provisional := 0
	for i, p := range plans {
		c := quote.Call{Phase: quote.Planning, Endpoint: p.Solver.Endpoint, Request: reqs[i], Provisional: p.Provisional}
		if len(p.Phase0Costs) > 0 {
			c.Expected, c.HasExpected = mean(p.Phase0Costs), true
		}
		if p.Provisional {
			provisional++
		}
		calls = append(calls, c)
	}
	if provisional > 0 {
		notes = append(notes, fmt.Sprintf("%d planner calls are provisional: their pools await Phase 0, so their budget (and the prompt's figure) is not known yet and the cache cannot hold them", provisional))
	}
	resolves, n, err := resolveCalls(ctx, d)
	if err != nil {
		return quote.Quote{}, err
	}
	calls, notes = append(calls, resolves...), append(notes, n...)
	opts := []llm.Option{llm.WithGetenv(noKeys)}
	if d.llm.Cache != nil {
		opts = append(opts, llm.WithCache(d.llm.Cache))
	}
	clients := llm.NewClients(opts...)
	q, err := quote.Make(ctx, calls, func(name string) (quote.Endpoint, error) {
		ep, ok := d.llm.Endpoints[name]
		if !ok {
			return quote.Endpoint{}, fmt.Errorf("%s: endpoint %q is not in the endpoints file %s (%s)", d.cfg.WhereEndpoint(name), name, d.cfg.Path(d.cfg.Endpoints), llm.DescribeNames(d.llm.Endpoints))
		}
		c, err := clients.Get(name, ep)
		return quote.Endpoint{Model: c, Price: ep.Price}, err
	})
	q.Notes = append(notes, q.Notes...)
	if err != nil {
		return q, err
	}
	if c := d.cfg.Spend.CapUSD; c != nil {
		if _, lerr := orchestrator.NewLedger(d.cfg, d.runStore, d.llm.Endpoints, gradingEndpoints(d.cfg), time.Now); lerr != nil {
			q.Notes = append(q.Notes, lerr.Error()+": baseline, run and budget-aware refuse to start until it can")
		} else {
			q.Notes = append(q.Notes, fmt.Sprintf("spend.cap_usd is $%.2f: a run stops before the call whose bound would take the run's spend past it", *c))
		}
	}
	spent, err := d.runStore.Spend(ctx)
	for _, s := range spent {
		ep, known := d.llm.Endpoints[s.Endpoint]
		q.Spent = append(q.Spent, quote.Spent{Phase: s.Phase, Endpoint: s.Endpoint, Calls: s.Calls, InputTokens: s.InputTokens,
			OutputTokens: s.OutputTokens, Dollars: s.Dollars, Unpriced: s.Dollars == 0 && (!known || ep.Price == nil)})
	}
	return q, err
}

// plannerPrompts renders the planner call of every plan (plancall.Of, as
// the Planner renders it; a Renderer reuses a pool's problems across its
// cells, which PendingPlans lists in turn), as many at once as the process
// has cores: a paper-scale study has 13,440 prompts of some 20 KB.
func plannerPrompts(ctx context.Context, plans []orchestrator.PendingPlan) ([]llm.Request, error) {
	out := make([]llm.Request, len(plans))
	g, _ := errgroup.WithContext(ctx)
	workers := runtime.GOMAXPROCS(0)
	chunk := max((len(plans)+workers-1)/workers, 1)
	for start := 0; start < len(plans); start += chunk {
		g.Go(func() error {
			var r plancall.Renderer
			for i := start; i < min(start+chunk, len(plans)); i++ {
				p := plans[i]
				req, err := r.Of(p.Request)
				if err != nil {
					return fmt.Errorf("planner prompt for %s/%s on %s: %w", p.Solver.Model, p.Solver.Mode, p.Dataset, err)
				}
				out[i] = req
			}
			return nil
		})
	}
	return out, g.Wait()
}

// baselineCalls are Phase 0's calls: every sample the baseline would
// still ask (baseline.samples per problem, each sample with a cache key of
// its own), per solver with an endpoint. A sample stored and kept counts
// no call; one not stored counts, even when the problem's ground truth is
// kept (orchestrator.PendingBaseline).
func baselineCalls(ctx context.Context, d quoteDeps) ([]quote.Call, []string, error) {
	pending, err := orchestrator.PendingBaseline(ctx, d.cfg, d.exec, d.baseline)
	if err != nil {
		return nil, nil, err
	}
	var calls []quote.Call
	var notes []string
	mayJudge := 0 // calls whose answer may go to the grading judge
	for _, ps := range pending {
		if ps.Solver.Endpoint == "" {
			if len(ps.Calls) > 0 {
				notes = append(notes, fmt.Sprintf("%s/%s has no endpoint: its %d Phase 0 samples not stored are not quoted (import their ground truth)", ps.Solver.Model, ps.Solver.Mode, len(ps.Calls)))
			}
			continue
		}
		for _, c := range ps.Calls {
			req, err := solving.Request(c.Problem, 0, c.Sample)
			if err != nil {
				continue // Solve makes no call: the problem is stored not gradeable
			}
			calls = append(calls, quote.Call{Phase: quote.Baseline, Endpoint: ps.Solver.Endpoint, Request: req, Batched: d.cfg.Baseline.Batch})
			if _, judged := solving.JudgeRequest(c.Problem); judged {
				mayJudge++
			}
		}
	}
	if d.cfg.Baseline.Batch && len(calls) > 0 {
		notes = append(notes, "baseline.batch: Phase 0 goes through the endpoints' Batch API, priced at their batch price (price × batch_factor, default 0.5)")
	}
	if note := judgeNote(d.cfg, "Phase 0", mayJudge); note != "" {
		notes = append(notes, note)
	}
	return calls, notes, nil
}

// judgeNote says how many judge calls a phase's n exact-answer calls may
// bring, which the quote does not count; "" when none may.
func judgeNote(cfg *orchestrator.Config, phase string, n int) string {
	if cfg.Baseline.JudgeEndpoint == "" || n == 0 {
		return ""
	}
	return fmt.Sprintf("judge calls (%s) of %s are not quoted: at most %d, one per exact answer matching cannot settle, known only after solving; a spend cap holds each at its bound and the spend record counts them", cfg.Baseline.JudgeEndpoint, phase, n)
}

// resolveCalls are the budget-aware re-solve's calls, each expecting its
// item's own Phase 0 cost; none when the run has no α = 1 llm plans.
func resolveCalls(ctx context.Context, d quoteDeps) ([]quote.Call, []string, error) {
	if !slices.Contains(d.cfg.Alphas, 1) || !slices.Contains(d.cfg.Strategies, vocab.LLM) || !slices.Contains(d.cfg.Variants, d.cfg.Baseline.BudgetAwareVariant) {
		return nil, nil, nil
	}
	sel, pending, err := budgetaware.PendingResolves(ctx, d.cfg, d.runStore, d.llm.Endpoints)
	if errors.Is(err, runstore.ErrNoRun) {
		return nil, []string{"the grid has not run yet: the re-solves follow its α = 1 plans and are not counted"}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var notes []string
	if sel.MissingPools > 0 {
		notes = append(notes, fmt.Sprintf("%d of %d α = 1 pools have no usable plan yet: their re-solves (at most %d items each) are not counted", sel.MissingPools, sel.Pools, d.cfg.PoolSize))
	}
	type key struct{ model, mode, dataset string }
	truth := map[key]map[string]*triagev1.GroundTruthRecord{}
	var calls []quote.Call
	mayJudge := 0 // calls whose answer may go to the grading judge
	for _, p := range pending {
		it := p.Item
		k := key{it.Solver.Model, it.Solver.Mode, it.Dataset}
		if truth[k] == nil {
			if truth[k], err = orchestrator.ListGroundTruth(ctx, d.exec, it.Solver, it.Dataset); err != nil {
				return nil, nil, err
			}
		}
		req, err := solving.Request(p.Problem, it.Tokens, 0)
		if err != nil {
			continue
		}
		c := quote.Call{Phase: quote.Resolve, Endpoint: it.Solver.Endpoint, Request: req}
		if rec, ok := truth[k][it.ProblemID]; ok {
			c.Expected, c.HasExpected = rec.GetCost(), true
		}
		calls = append(calls, c)
		if _, judged := solving.JudgeRequest(p.Problem); judged {
			mayJudge++
		}
	}
	if note := judgeNote(d.cfg, "the re-solves", mayJudge); note != "" {
		notes = append(notes, note)
	}
	return calls, notes, nil
}

// mean is the rounded mean of xs (not empty).
func mean(xs []int64) int64 {
	var s int64
	for _, x := range xs {
		s += x
	}
	return (s + int64(len(xs))/2) / int64(len(xs))
}

// madeEmpty says which of a config's stores a quote made empty in scratch
// (absentAsEmpty): those it opens to write; the others it only reads.
type madeEmpty struct{ runStore, groundTruth, cache bool }

// absentAsEmpty points each of cfg's stores that holds nothing yet at a
// fresh SQLite file in scratch, and says which: a quote reads stores, and
// one not there is empty; it must not leave new files behind in the
// study's folder (nor quote a mistyped path into existence). The run store
// is absent as runStoreAbsent says; the ground-truth store and the cache
// when their local file is not there (fileAbsent; a PostgreSQL one is
// opened as a run opens it).
func absentAsEmpty(ctx context.Context, cfg *orchestrator.Config, scratch string) (made madeEmpty, err error) {
	if made.runStore, err = runStoreAbsent(ctx, cfg.Path(cfg.RunStore)); err != nil {
		return made, fmt.Errorf("%s: %w", cfg.Where("run_store"), err)
	}
	made.groundTruth, made.cache = fileAbsent(cfg.Path(cfg.GroundTruthStore)), fileAbsent(cfg.Path(cfg.LLMCache))
	inScratch := func(i int, location *string) {
		*location = filepath.Join(scratch, fmt.Sprintf("%d-%s", i, filepath.Base(sqldb.SQLitePath(cfg.Path(*location)))))
	}
	if made.runStore {
		inScratch(0, &cfg.RunStore)
	}
	if made.groundTruth {
		inScratch(1, &cfg.GroundTruthStore)
	}
	if made.cache {
		inScratch(2, &cfg.LLMCache)
	}
	return made, nil
}

// runStoreAbsent reports whether the run store at loc holds nothing yet: a
// local file not there or empty (not opened: one this process cannot
// write is then copied to be read once, by the quote's own open), or a
// PostgreSQL database without a run store (runstore.Exists). A file that
// holds something else is left to the open, which says what it holds.
func runStoreAbsent(ctx context.Context, loc string) (bool, error) {
	path, local := isStorePath(loc)
	if !local {
		if !sqldb.IsPostgres(loc) {
			return false, nil // "" or "off": no store, nothing to stand in for
		}
		ok, err := runstore.Exists(ctx, loc)
		return !ok, err
	}
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return true, nil
	case err != nil:
		return false, err
	}
	return info.Size() == 0, nil
}
