package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/triage-eval/triage/internal/platform/version"
	"github.com/triage-eval/triage/internal/platform/yamlloc"
	"github.com/triage-eval/triage/internal/protocol/metrics"
	"github.com/triage-eval/triage/internal/runs/budgetaware"
	"github.com/triage-eval/triage/internal/runs/figures"
	"github.com/triage-eval/triage/internal/runs/htmlreport"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/runs/report"
	"github.com/triage-eval/triage/internal/store/runstore"
	"github.com/triage-eval/triage/internal/store/sqldb"
)

func runReport(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("report", env.Stderr)
	out := fs.String("out", "", "directory for the report files; default: RUN_STORE.report, or CONFIG.report beside the config (run.yaml → run.report) for a PostgreSQL run store")
	seed := fs.Uint64("bootstrap-seed", 0, "seed of the bootstrap confidence intervals (recorded in cells.json)")
	alpha := fs.Float64("alpha", report.HeadlineAlpha, "budget fraction of the summary and the bar figures")
	dial := addDialFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: triage report [flags] CONFIG.yaml|RUN_STORE\n\nWrites every table and file of a run's report and prints its summary.\nGive the run's config (its run_store is read) or the run store itself.\nRepeated Phase 0 samples (baseline.samples > 1) are read through the\nconfig's Executor (a run store's: the config it records) for the\nmeasurement-noise part.\n\nflags:\n")
		fs.PrintDefaults()
	}
	rest, err := parseFlags(fs, args, env.Getenv, 1)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if len(rest) != 1 {
		return fmt.Errorf("%w: triage report needs the run's config (YAML) or its run store", ErrUsage)
	}
	if !(*alpha > 0 && *alpha <= 1) {
		return fmt.Errorf("%w: --alpha: must be in (0, 1], got %v", ErrUsage, *alpha)
	}
	path, cfg, err := runStoreOf(ctx, rest[0])
	if err != nil {
		return err
	}
	dir := *out
	if dir == "" {
		if dir = reportDir(cfg, path); dir == "" {
			return fmt.Errorf("%w: --out is required with a PostgreSQL run store given by its URL (or give the run's config: the report goes beside it)", ErrUsage)
		}
	}
	err = writeReport(ctx, path, dir, reportOptions{Bootstrap: metrics.Bootstrap{Seed: *seed}, Alpha: *alpha, Noise: true, Config: cfg, Dial: dial}, env)
	if pathErr := (*iofs.PathError)(nil); *out == "" && errors.As(err, &pathErr) && errors.Is(err, iofs.ErrPermission) && strings.HasPrefix(pathErr.Path, dir) {
		return fmt.Errorf("%w (writing the report in its default directory, %s; give --out DIR to write it elsewhere)", err, dir)
	}
	return err
}

// looksLikeConfig reports whether the YAML file at path gives a run
// config's run_store or solvers: a file that does, and does not load, is a
// config with a mistake, not the wrong kind of file.
func looksLikeConfig(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	ix := yamlloc.Build(data)
	store, _ := ix.Given("run_store")
	solvers, _ := ix.Given("solvers")
	return store || solvers
}

// runStoreOf returns the run store a report argument names: the file
// itself when it is a SQLite database, the URL itself when it is a
// PostgreSQL one, the config's run_store when it is a config (then the
// config too; nil for a run store). A run store that does not exist is an
// error, never created.
func runStoreOf(ctx context.Context, arg string) (string, *orchestrator.Config, error) {
	if sqldb.IsPostgres(arg) {
		return arg, nil, postgresRunStore(ctx, arg, "")
	}
	path := sqldb.SQLitePath(arg)
	prefixed := path != arg
	kind, err := sniff(path)
	if err != nil {
		return "", nil, err
	}
	switch {
	case prefixed && kind == kindMissing:
		return "", nil, fmt.Errorf("%s: no such file (expected a run store)", arg)
	case prefixed && kind != kindSQLite:
		return "", nil, fmt.Errorf("%s: %s is not a SQLite database (sqlite: names a run store)", arg, path)
	}
	switch kind {
	case kindMissing:
		return "", nil, fmt.Errorf("%s: no such file (expected the run's config or its run store)", arg)
	case kindSQLite:
		return arg, nil, nil
	case kindJSON:
		return "", nil, fmt.Errorf("%s holds JSON (a problem, ground-truth or score file?), not a run config or a run store", arg)
	}
	cfg, err := orchestrator.LoadConfig(arg)
	if err != nil {
		if looksLikeConfig(arg) {
			return "", nil, err // a run config, with something to fix
		}
		return "", nil, fmt.Errorf("%w (triage report expects the run's config or its run store)", err)
	}
	path = cfg.Path(cfg.RunStore)
	if sqldb.IsPostgres(path) {
		return path, cfg, postgresRunStore(ctx, path, arg)
	}
	path = sqldb.SQLitePath(path)
	if kind, err := sniff(path); err != nil || kind == kindMissing {
		return "", nil, fmt.Errorf("%s: the config's run_store %s does not exist yet (triage run %s first)", arg, path, arg)
	}
	return path, cfg, nil
}

// reportDir is where a run's report files go by default: beside a SQLite
// run store (RUN_STORE.report), or beside the config for a PostgreSQL one
// (run.yaml → run.report); "" for a PostgreSQL run store without its
// config file.
func reportDir(cfg *orchestrator.Config, runStore string) string {
	switch {
	case !sqldb.IsPostgres(runStore):
		return sqldb.SQLitePath(runStore) + ".report"
	case cfg == nil || cfg.File() == "":
		return ""
	}
	return strings.TrimSuffix(cfg.File(), filepath.Ext(cfg.File())) + ".report"
}

// postgresRunStore checks that the PostgreSQL database at url holds a run
// store; config, when not "", is the config that names it.
func postgresRunStore(ctx context.Context, url, config string) error {
	ok, err := runstore.Exists(ctx, url)
	switch {
	case err != nil:
		return err
	case ok:
		return nil
	case config != "":
		return fmt.Errorf("%s: the config's run_store %s holds no run yet (triage run %s first)", config, sqldb.Redact(url), config)
	}
	return fmt.Errorf("%s holds no run store (triage run with it as run_store first)", sqldb.Redact(url))
}

// reportOptions adjust writeReport.
type reportOptions struct {
	Bootstrap metrics.Bootstrap
	// Alpha is the headline α asked for (report.Options.Alpha; 0 means
	// report.HeadlineAlpha): the report resolves it once for the summary,
	// the figures and the page.
	Alpha float64
	// Synthetic marks a report of made-up data (the demo).
	Synthetic bool
	// Noise asks for the measurement-noise part (SPEC §9): the Phase 0
	// samples are read through Config's Executor, or, when Config is nil,
	// that of the config the run store's manifest records (see noiseInput).
	// Dial dials a remote Executor.
	Noise  bool
	Config *orchestrator.Config
	Dial   *dialFlags
}

// writeReport builds the report of the run store at path into dir, prints
// its summary (about 40 lines for the demo) to stdout and says where the files are.
func writeReport(ctx context.Context, path, dir string, opts reportOptions, env Env) error {
	rs, err := runstore.OpenToRead(ctx, path)
	if err != nil {
		return err
	}
	defer closeQuietly(rs) // only read
	cfg, cfgErr := reportConfig(ctx, rs, path, opts)
	if cfgErr != nil {
		// One note for both parts that need the config.
		fmt.Fprintf(env.Stderr, "note: freshness is judged against the last run's inputs, not today's, and there is no measurement-noise part (SPEC §9 repeated Phase 0): %v; pass the run's config (triage report CONFIG.yaml) to read them\n", cfgErr)
	}
	gt := &reportGroundTruth{cfg: cfg, env: env}
	defer closeQuietly(gt) // only read
	res, err := reportResults(ctx, rs, cfg, gt, opts, env)
	if err != nil {
		return err
	}
	var noise *report.NoiseInput
	if opts.Noise && cfg != nil {
		noise = noiseInput(ctx, rs, cfg, gt, res.Records, opts, env)
	}
	rep := report.BuildWith(res.Records, res.Accuracy, report.Options{Bootstrap: opts.Bootstrap, Alpha: opts.Alpha, Noise: noise})
	builds, err := rs.Builds(ctx)
	if err != nil {
		return err
	}
	rep.Version = version.Current()
	distinct := map[string]bool{}
	for _, b := range builds {
		rep.Builds = append(rep.Builds, b.String())
		distinct[b.Build.String()] = true
	}
	rep.DistinctBuilds = len(distinct)
	if err := rep.WriteDir(dir); err != nil {
		return err
	}
	ba, baFresh, err := rs.BudgetAware(ctx)
	if err != nil {
		return err
	}
	var rows []budgetaware.Row
	if len(ba) > 0 {
		rows = budgetaware.Summarize(ba)
		if err := budgetaware.WriteDir(dir, rows); err != nil {
			return err
		}
	}
	written := rep.WrittenFiles()
	if len(rows) > 0 {
		written = append(written, budgetaware.FileNames...)
	}
	spend, err := rs.Spend(ctx)
	if err != nil {
		return err
	}
	if len(spend) > 0 {
		if err := writeSpend(dir, spend); err != nil {
			return err
		}
		written = append(written, spendFiles...)
	}
	var warnings strings.Builder
	printFreshness(&warnings, "cell", res.Freshness)
	if len(ba) > 0 || baFresh.Stale > 0 {
		printFreshness(&warnings, "budget-aware re-solve", baFresh)
		// Not yet laid out again as the cells are (reportResults).
		fmt.Fprintln(&warnings, "note: the budget-aware re-solves are judged against the inputs of the last `triage budget-aware`, not today's")
	}
	if err := writePage(dir, rep, rows, spend, opts, warnings.String()); err != nil {
		return err
	}
	written = append(written, htmlreport.FileName, figuresDir+"/")
	return printSummary(env.Stdout, rep, rows, spend, dir, written, opts, warnings.String())
}

// figuresDir is the report directory's folder of figures.
const figuresDir = "figures"

// writePage draws the figures into dir/figures and writes the
// self-contained HTML report, each through a temporary file renamed into
// place.
func writePage(dir string, rep report.Report, rows []budgetaware.Row, spend []runstore.SpendRow, opts reportOptions, warnings string) error {
	figs, err := figures.Draw(rep, rows, figures.Options{})
	if err != nil {
		return fmt.Errorf("figures: %w", err)
	}
	if err := figures.WriteDir(filepath.Join(dir, figuresDir), figs); err != nil {
		return err
	}
	var notes []string
	if opts.Synthetic {
		notes = append(notes, "SYNTHETIC demo data: invented problems and invented solvers, not real model results.")
	}
	for _, line := range strings.Split(strings.TrimSpace(warnings), "\n") {
		if line != "" {
			notes = append(notes, line)
		}
	}
	var page bytes.Buffer
	in := htmlreport.Input{Report: rep, BudgetAware: rows, Figures: figs, Notes: notes}
	if len(spend) > 0 {
		t := spendTable(spend)
		in.Spend = &t
	}
	if err := htmlreport.Write(&page, in); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, htmlreport.FileName), func(w io.Writer) error {
		_, err := w.Write(page.Bytes())
		return err
	})
}

// printSummary writes the report's headline table, the warnings and where
// the files are: the entries of reportListing whose files are all among
// written (the injection cells only when the run has them).
func printSummary(w io.Writer, rep report.Report, rows []budgetaware.Row, spend []runstore.SpendRow, dir string, written []string, opts reportOptions, warnings string) error {
	title := "# TRIAGE report"
	if opts.Synthetic {
		title += " — SYNTHETIC demo data, not real model results"
	}
	fmt.Fprintln(w, title)
	fmt.Fprintln(w)
	if err := report.WriteMarkdownTable(w, rep.SummaryTable(budgetaware.Headlines(rows))); err != nil {
		return err
	}
	fmt.Fprintln(w)
	if len(spend) > 0 {
		if err := report.WriteMarkdownTable(w, spendTable(spend)); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	if warnings != "" {
		fmt.Fprint(w, warnings)
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "Written by triage %s; the run's results come from %d build(s) of triage, listed with the commands they ran in cells.json.\n", rep.Version, rep.DistinctBuilds)
	fmt.Fprintf(w, "Every table, figure and number is in %s:\n", dir)
	for _, e := range reportListing {
		if !containsAll(written, e.files) || (e.holds != nil && !e.holds(rep)) {
			continue
		}
		name := e.name
		if name == "" {
			name = strings.Join(e.files, ", ")
		}
		fmt.Fprintf(w, "  %-32s %s\n", name, e.what)
	}
	return nil
}

// reportListing describes the files of a report directory, in the order
// printSummary lists them.
var reportListing = []struct {
	files []string
	// name shows the files when their list is too long; "" lists them.
	name, what string
	// holds, when set, says whether the files hold anything for this
	// report (they are written header-only otherwise, and not listed).
	holds func(report.Report) bool
}{
	{files: []string{htmlreport.FileName}, what: "the report to read: summary, figures beside their tables (no network)"},
	{files: []string{figuresDir + "/"}, what: "every figure as SVG and PNG, with captions (" + figures.IndexName + ")"},
	{files: []string{"tables.md", "tables.tex"}, what: "every table (Markdown, LaTeX)"},
	{files: []string{"cells.md", "cells.csv", "cells.json"}, what: "per cell: means, intervals, exclusions, degenerate pools"},
	{files: []string{"pools.csv"}, what: "per pool: every number the means are computed from"},
	{files: []string{"comparisons.csv"}, what: "paired differences of η between solvers, with their power"},
	{files: []string{"accuracy.csv"}, what: "base accuracy per solver and dataset"},
	{
		files: []string{"sensitivity_ranges.csv", "sensitivity_ranks.csv"}, name: "sensitivity_ranges.csv, _ranks.csv", what: "prompt sensitivity across variants",
		holds: func(r report.Report) bool { s := r.Sensitivity(); return len(s.Ranges)+len(s.Ranks) > 0 },
	},
	{files: []string{"noise.csv", "items_noise.csv"}, what: "measurement noise of the repeated Phase 0 samples, per solver and per item"},
	{files: []string{"injection.csv"}, what: "the unsolvable-injection cells", holds: func(r report.Report) bool { return len(r.Injection) > 0 }},
	{files: budgetaware.FileNames, name: "budget_aware.md, .csv, .json", what: "the budget-aware re-solve"},
	{files: spendFiles, what: "what the model calls cost, per phase and endpoint"},
}

// containsAll reports whether every one of want is in have.
func containsAll(have, want []string) bool {
	for _, x := range want {
		if !slices.Contains(have, x) {
			return false
		}
	}
	return true
}

// printFreshness says what a report left out or could not check, so that
// stale and fresh results are never mixed silently (SPEC §5). unit names
// what is counted ("cell", "budget-aware re-solve").
func printFreshness(w io.Writer, unit string, f runstore.Freshness) {
	switch {
	case f.Unchecked:
		fmt.Fprintf(w, "warning: no %s of this run store records its inputs (written by an older triage): freshness cannot be checked; run the config again to check and recompute what changed\n", unit)
		return
	case f.Stale > 0:
		fmt.Fprintf(w, "warning: %d %s(s) are stale (their inputs changed after they were computed) and are left out of every figure; run the config again to recompute them (if it refuses because ground truth was measured on problems edited since, run triage baseline first)\n", f.Stale, unit)
	}
	if f.Pending > 0 {
		fmt.Fprintf(w, "note: %d %s(s) of the latest run are not computed yet\n", f.Pending, unit)
	}
	if f.Outside > 0 {
		fmt.Fprintf(w, "note: %d stored %s(s) are no longer selected by the config and are not reported\n", f.Outside, unit)
	}
}
