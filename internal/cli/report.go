package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/triage-eval/triage/internal/runs/budgetaware"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/runs/report"
)

func runReport(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("report", env.Stderr)
	out := fs.String("out", "", "directory for the report files (Markdown, CSV, JSON, LaTeX); default: RUN_STORE.report")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: triage report [flags] RUN_STORE\n\nWrites the tables of a run and prints the Markdown summary.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, env.Getenv, 1); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: triage report needs the run store (the run_store of the config)", ErrUsage)
	}
	path := fs.Arg(0)
	if _, err := os.Stat(path); err != nil {
		return err
	}
	dir := *out
	if dir == "" {
		dir = path + ".report"
	}
	return writeReport(ctx, path, dir, env)
}

// writeReport builds the report of the run store at path into dir and
// prints its Markdown to stdout.
func writeReport(ctx context.Context, path, dir string, env Env) error {
	rs, err := orchestrator.OpenRunStore(ctx, path)
	if err != nil {
		return err
	}
	defer rs.Close()
	recs, accs, err := rs.Results(ctx)
	if err != nil {
		return err
	}
	rep := report.Build(recs, accs)
	if err := rep.WriteDir(dir); err != nil {
		return err
	}
	if err := rep.Markdown(env.Stdout); err != nil {
		return err
	}
	ba, err := rs.BudgetAware(ctx)
	if err != nil {
		return err
	}
	if len(ba) > 0 {
		rows := budgetaware.Summarize(ba)
		if err := budgetaware.WriteDir(dir, rows); err != nil {
			return err
		}
		fmt.Fprint(env.Stdout, "\n## Budget-aware re-solve\n\n")
		if err := budgetaware.Markdown(env.Stdout, rows); err != nil {
			return err
		}
	}
	fmt.Fprintf(env.Stderr, "report written to %s\n", dir)
	return nil
}
