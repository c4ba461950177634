package cli

import (
	"context"
	"fmt"
	"time"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/version"
	"github.com/triage-eval/triage/internal/runs/budgetaware"
	"github.com/triage-eval/triage/internal/runs/work"
)

func runBudgetAware(ctx context.Context, args []string, env Env) (err error) {
	fs := newFlagSet("budget-aware", env.Stderr)
	progressMode := fs.String("progress", "auto", "progress display: auto (live on a terminal, log lines otherwise), plain or off")
	out := fs.String("out", "", "directory for budget_aware.{md,csv,json}; default: RUN_STORE.report, or CONFIG.report beside the config (run.yaml → run.report) for a PostgreSQL run store")
	shared := addSharedFlags(fs)
	dial := addDialFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: triage budget-aware [flags] CONFIG.yaml\n\nRe-solves every (solver, problem) that the run's α = 1 llm plan selected\nwith a_i > 0, with the budget banner stating a_i (SPEC §5), and reports\nAcc_baseline, Acc_budget-aware, compliance and the four outcome counts per\nsolver and dataset. Results go to the run store; a re-run resumes.\n\nflags:\n")
		fs.PrintDefaults()
	}
	cfg, err := loadConfigArg(fs, args, env)
	if cfg == nil || err != nil {
		return err
	}
	rs, err := openRunStore(ctx, cfg.Path(cfg.RunStore), "budget-aware", shared.storeOutage, env.Stderr)
	if err != nil {
		return err
	}
	defer closeInto(&err, rs.Close)
	llmCfg, closeCache, err := plannerConfig(ctx, configSources(cfg), env)
	if err != nil {
		return err
	}
	defer closeInto(&err, closeCache)
	llmCfg.Drain = env.stopChan() // the first interrupt: no re-solve is sent after it
	solver, clients, err := newSolver(llmCfg, solveOptionsOf(cfg), func(msg string) { fmt.Fprintln(env.Stderr, "warning:", msg) })
	if err != nil {
		return err
	}
	st, closeStore, err := openGroundTruth(ctx, cfg, env)
	if err != nil {
		return err
	}
	defer closeInto(&err, closeStore)
	deps := serviceDeps{now: time.Now, store: st, tel: env.Telemetry}
	conns, err := connect([]string{"executor"}, map[string]string{"executor": cfg.Services.Executor}, dial, deps, env.Stderr)
	if err != nil {
		return err
	}
	defer closeInto(&err, conns.Close)
	ledger, err := spendLedger(cfg, rs, gradingEndpoints(cfg))
	if err != nil {
		return err
	}
	p := &work.Progress{Unit: "re-solves"}
	stop, reported, err := startProgress(p, *progressMode, env.Stderr)
	if err != nil {
		return err
	}
	sel, err := budgetaware.Run(ctx, budgetaware.Deps{
		Config: cfg, RunStore: rs, Executor: triagev1.NewExecutorServiceClient(conns.conns["executor"]),
		Endpoints: llmCfg.Endpoints, Clients: clients, Solver: solver, Worker: shared.worker, Lease: shared.lease,
		Version: version.Current().Stamp(), Spend: ledger, Stop: env.stopChan(),
	}, p)
	err = ledger.Final(ctx, err)
	close(stop)
	<-reported
	if err != nil {
		return err
	}
	if warning, _ := sel.Failures.Outcome(budgetaware.CallsWhat, int(p.LLMCalls.Load()), retryHint); warning != "" {
		fmt.Fprintln(env.Stderr, "warning:", warning)
	}
	results, fresh, err := rs.BudgetAware(ctx)
	if err != nil {
		return err
	}
	printFreshness(env.Stderr, "re-solve", fresh)
	rows := budgetaware.Summarize(results)
	dir := *out
	if dir == "" {
		dir = reportDir(cfg, cfg.Path(cfg.RunStore))
	}
	if err := budgetaware.WriteDir(dir, rows); err != nil {
		return err
	}
	if err := budgetaware.Markdown(env.Stdout, rows); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "%d items selected from %d α = 1 pools (%d pools without a usable plan): %d re-solved now (%d of them stale, %d retried), %d fresh from before; tables in %s\n",
		len(sel.Items), sel.Pools, sel.MissingPools, p.Total.Load()-p.Skipped.Load(), p.Stale.Load(), p.Retried.Load(), p.Skipped.Load(), dir)
	return nil
}
