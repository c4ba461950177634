package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"golang.org/x/term"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/version"
	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/runs/work"
	"github.com/triage-eval/triage/internal/store/sqldb"
)

func runRun(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("run", env.Stderr)
	progress := fs.String("progress", "auto", "progress display: auto (live on a terminal, log lines otherwise), plain or off")
	keepErrors := fs.Bool("keep-errors", false, "keep cells whose planner call failed instead of retrying them")
	shared := addSharedFlags(fs)
	dial := addDialFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: triage run [flags] CONFIG.yaml\n\nRuns (or resumes) the grid a config describes; see docs/guide.md.\n\nflags:\n")
		fs.PrintDefaults()
	}
	cfg, err := loadConfigArg(fs, args, env)
	if cfg == nil || err != nil {
		return err
	}
	return runGrid(ctx, "run", cfg, *progress, orchestrator.Options{KeepErrors: *keepErrors, Worker: shared.worker, Lease: shared.lease}, shared.storeOutage, dial, env)
}

// runGrid runs cfg for command ("run", "demo") with in-process services
// where no address is given and remote ones dialled as dial says (nil:
// plaintext, no token), riding out run store outages of up to storeOutage.
func runGrid(ctx context.Context, command string, cfg *orchestrator.Config, progressMode string, opts orchestrator.Options, storeOutage time.Duration, dial *dialFlags, env Env) (err error) {
	runStore, err := openRunStore(ctx, cfg.Path(cfg.RunStore), command, storeOutage, env.Stderr)
	if err != nil {
		return err
	}
	defer closeInto(&err, runStore.Close)
	opts.MeterProvider = env.meterProvider()
	opts.Version = version.Current().Stamp()
	st, closeStore, err := openGroundTruth(ctx, cfg, env)
	if err != nil {
		return err
	}
	defer closeInto(&err, closeStore)
	deps := serviceDeps{now: time.Now, store: st, tel: env.Telemetry}
	if cfg.Services.Planner == "" {
		pc, closeCache, perr := plannerConfig(ctx, configSources(cfg), env)
		if perr != nil {
			return perr
		}
		defer closeInto(&err, closeCache)
		pc.Drain = env.stopChan() // the first interrupt: no planner call is sent after it
		deps.planner = pc
	}
	conns, err := connect([]string{"executor", "oracle", "planner"},
		map[string]string{"executor": cfg.Services.Executor, "oracle": cfg.Services.Oracle, "planner": cfg.Services.Planner}, dial, deps, env.Stderr)
	if err != nil {
		return err
	}
	defer closeInto(&err, conns.Close)
	var used []string
	if slices.Contains(cfg.Strategies, vocab.LLM) {
		used = solverEndpoints(cfg)
	}
	if opts.Spend, err = spendLedger(cfg, runStore, used); err != nil {
		return err
	}
	p := &work.Progress{}
	opts.Stop = env.stopChan()
	opts.Warn = warnLine(env.Stderr)
	plannerClient := triagev1.NewPlannerServiceClient(conns.conns["planner"])
	if cfg.Services.Planner != "" {
		// A remote Planner is told of the drain through its calls: those
		// it has not sent to the model are withdrawn (the in-process one
		// has pc.Drain).
		plannerClient = orchestrator.WithdrawQueued(plannerClient, conns.conns["planner"], opts.Stop)
	}
	runner := orchestrator.NewRunner(cfg, orchestrator.Clients{
		Planner:  plannerClient,
		Executor: triagev1.NewExecutorServiceClient(conns.conns["executor"]),
		Oracle:   triagev1.NewOracleServiceClient(conns.conns["oracle"]),
	}, runStore, time.Now, p, opts)
	stop, reported, err := startProgress(p, progressMode, env.Stderr)
	if err != nil {
		return err
	}
	err = opts.Spend.Final(ctx, runner.Run(ctx))
	close(stop)
	<-reported
	if err != nil {
		return err
	}
	if warning := runner.PlannerWarning(retryHint); warning != "" {
		fmt.Fprintln(env.Stderr, "warning:", warning)
	}
	if err := runner.PlanFailure(p.Skipped.Load()); err != nil && command == "run" {
		// A run whose model planned nothing scoreable measured nothing, and
		// says so as a failure, as a baseline with nothing gradeable does.
		// The demo warns instead (below), and writes its report.
		return fmt.Errorf("%w; the other cells are stored in %s, and each llm cell keeps the model's raw answer (triage report %s)",
			err, sqldb.Redact(cfg.Path(cfg.RunStore)), reportArg(cfg))
	}
	if warning := runner.PlanWarning(); warning != "" {
		fmt.Fprintln(env.Stderr, "warning:", warning)
	}
	fmt.Fprintf(env.Stderr, "run complete: %d cells (%d fresh from before, %d stale recomputed, %d failed retried, %d planner errors now); results in %s (triage report %s)\n",
		p.Total.Load(), p.Skipped.Load(), p.Stale.Load(), p.Retried.Load(), p.Errors.Load(), sqldb.Redact(cfg.Path(cfg.RunStore)), reportArg(cfg))
	return nil
}

// reportArg is what to give triage report for cfg's run: its run store, or
// its config file when the run store is a PostgreSQL URL — the URL alone
// needs --out, and may hold a password, which no message shows.
func reportArg(cfg *orchestrator.Config) string {
	store := cfg.Path(cfg.RunStore)
	switch {
	case sqldb.IsPostgres(store) && cfg.File() != "":
		return cfg.File()
	case sqldb.IsPostgres(store):
		return sqldb.Redact(store)
	}
	return sqldb.SQLitePath(store)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
