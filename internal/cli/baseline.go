package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/runs/work"
	"github.com/triage-eval/triage/internal/store/sqldb"
)

func runBaseline(ctx context.Context, args []string, env Env) (err error) {
	fs := newFlagSet("baseline", env.Stderr)
	progressMode := fs.String("progress", "auto", "progress display: auto (live on a terminal, log lines otherwise), plain or off")
	rerun := fs.Bool("rerun", false, "re-solve problems whose stored ground truth is gradeable too (cached responses are reused)")
	keep := fs.Bool("keep-ungradeable", false, "leave problems stored as not gradeable alone instead of trying them again")
	dial := addDialFlags(fs)
	logPath := fs.String("log", "", "append one JSON line per solved problem (outcome, extracted answer, error) to this file")
	shared := addSharedFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: triage baseline [flags] CONFIG.yaml\n\nRuns Phase 0: every solver of the config on every problem of its datasets,\nonce (or baseline.samples times), graded, stored as ground truth in the\nconfig's ground_truth_store (or the remote Executor). Resumable: stored\nproblems (samples) are skipped.\n\nflags:\n")
		fs.PrintDefaults()
	}
	cfg, err := loadConfigArg(fs, args, env)
	if cfg == nil || err != nil {
		return err
	}
	if err := orchestrator.CheckGradable(cfg); err != nil {
		return err // before any store is opened or model called
	}
	opts := orchestrator.BaselineOptions{Rerun: *rerun, KeepUngradeable: *keep, Stop: env.stopChan()}
	if *logPath != "" {
		f, ferr := os.OpenFile(*logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if ferr != nil {
			return fmt.Errorf("--log: %w", ferr)
		}
		defer closeInto(&err, f.Close)
		opts.Log = f
	}
	st, closeStore, err := openGroundTruth(ctx, cfg, env)
	if err != nil {
		return err
	}
	defer closeInto(&err, closeStore)
	deps := serviceDeps{now: time.Now, store: st, tel: env.Telemetry}
	if st != nil {
		llmCfg, closeCache, perr := plannerConfig(ctx, configSources(cfg), env)
		if perr != nil {
			return perr
		}
		defer closeInto(&err, closeCache)
		llmCfg.Drain = opts.Stop // the first interrupt: no model call is sent after it
		if deps.baseline, err = newBaseline(llmCfg, solveOptionsOf(cfg), func(msg string) { fmt.Fprintln(env.Stderr, "warning:", msg) }); err != nil {
			return err
		}
		deps.baseline.Stop = opts.Stop
	}
	conns, err := connect([]string{"executor"}, map[string]string{"executor": cfg.Services.Executor}, dial, deps, env.Stderr)
	if err != nil {
		return err
	}
	defer closeInto(&err, conns.Close)
	p := &work.Progress{Unit: "problems"}
	if cfg.Baseline.Samples > 1 {
		p.Unit = "calls" // problems × samples
	}
	stop, reported, err := startProgress(p, *progressMode, env.Stderr)
	if err != nil {
		return err
	}
	rs, err := openRunStore(ctx, cfg.Path(cfg.RunStore), "baseline", shared.storeOutage, env.Stderr)
	if err != nil {
		return err
	}
	defer closeInto(&err, rs.Close)
	opts.Store, opts.Worker, opts.Lease = rs, shared.worker, shared.lease
	if opts.Spend, err = spendLedger(cfg, rs, gradingEndpoints(cfg)); err != nil {
		return err
	}
	sums, err := orchestrator.RunBaseline(ctx, cfg, triagev1.NewExecutorServiceClient(conns.conns["executor"]), opts, p)
	err = opts.Spend.Final(ctx, err)
	close(stop)
	<-reported
	if ctx.Err() != nil || (err != nil && env.stopAsked()) {
		// The solvers' summaries come at the end of their streams: a
		// stopped baseline has none, or some, and the counters say more.
		fmt.Fprintf(env.Stderr, "baseline stopped: %s %d of %d done, %d of them stored before this run\n",
			p.Unit, p.Done.Load(), p.Total.Load(), p.Skipped.Load())
	} else {
		printBaselineSummaries(env.Stderr, sums)
	}
	if err != nil {
		return err
	}
	for _, s := range sums {
		for _, w := range s.BatchWarnings {
			fmt.Fprintf(env.Stderr, "warning: batch Phase 0 of %s/%s: %s\n", s.Solver.Model, s.Solver.Mode, w)
		}
		if warning, _ := s.Outcome(retryHint); warning != "" {
			fmt.Fprintln(env.Stderr, "warning:", warning)
		}
	}
	fmt.Fprintf(env.Stderr, "baseline complete: ground truth in %s; next: triage run %s\n", where(cfg), cfg.File())
	return nil
}

// retryHint is how a command's warning about failed model calls says they
// are tried again: every command that makes them resumes, retrying what
// failed.
const retryHint = "the same command"

// where names the store the ground truth went to, its password masked.
func where(cfg *orchestrator.Config) string {
	if cfg.Services.Executor != "" {
		return "the executor at " + cfg.Services.Executor
	}
	return sqldb.Redact(cfg.Path(cfg.GroundTruthStore))
}

// printBaselineSummaries writes one line per solver, and one more saying
// why when some of its problems are not gradeable.
func printBaselineSummaries(w io.Writer, sums []orchestrator.BaselineSummary) {
	for _, s := range sums {
		if s.Summary == nil {
			continue
		}
		m := s.Summary
		lucky := ""
		if n := m.GetLuckyGuesses(); n > 0 {
			lucky = fmt.Sprintf(" (%d of them lucky guesses on unsolvable problems, scored 0)", n)
		}
		asked := fmt.Sprintf("%d problems", s.Total)
		if s.Samples > 1 {
			asked = fmt.Sprintf("%d calls (%d problems × %d samples)", s.Total, s.Total/s.Samples, s.Samples)
		}
		stale := ""
		if s.Stale > 0 {
			stale = fmt.Sprintf(", %d stored stale (measured on another text, grading or unsolvable mark) and solved again", s.Stale)
		}
		fmt.Fprintf(w, "%s/%s: %s, %d already stored%s; solved %d: %d correct, %d incorrect%s (%d cut at the token limit), %d not gradeable (%d failed model calls), %d from cache\n",
			s.Solver.Model, s.Solver.Mode, asked, s.Skipped, stale, m.GetSolved(), m.GetCorrect(), m.GetGradeable()-m.GetCorrect(), lucky, m.GetTruncated(), m.GetNotGradeable(), m.GetFailedCalls(), m.GetCached())
		if why := s.Ungradeable.Reasons(); m.GetNotGradeable() > 0 && why != "" {
			fmt.Fprintf(w, "%s/%s: %d not gradeable: %s\n", s.Solver.Model, s.Solver.Mode, m.GetNotGradeable(), why)
		}
	}
}

// startProgress starts reporting p to w as mode asks; close stop to end it
// and wait on reported for the final line.
func startProgress(p *work.Progress, mode string, w io.Writer) (stop, reported chan struct{}, err error) {
	stop, reported = make(chan struct{}), make(chan struct{})
	switch mode {
	case "off":
		close(reported)
	case "auto", "plain":
		live := mode == "auto" && isTerminal(w)
		interval := 5 * time.Second
		if live {
			interval = 200 * time.Millisecond
		}
		go func() { p.Report(w, live, interval, stop); close(reported) }()
	default:
		return nil, nil, fmt.Errorf("%w: --progress must be auto, plain or off, got %q", ErrUsage, mode)
	}
	return stop, reported, nil
}
