package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/gtfile"
	"github.com/triage-eval/triage/internal/store/sqldb"
)

func runGroundTruth(ctx context.Context, args []string, env Env) (err error) {
	if len(args) == 0 || (args[0] != "import" && args[0] != "list") {
		return fmt.Errorf("%w: triage ground-truth import FILE | list [CONFIG] [flags]", ErrUsage)
	}
	fs := newFlagSet("ground-truth "+args[0], env.Stderr)
	storeLoc := fs.String("store", DefaultStore, "ground-truth store used in process: a SQLite file path, sqlite:PATH, or a postgres:// URL")
	addr := fs.String("executor-addr", "", "remote Executor (host:port); default: in process over --store")
	dial := addDialFlags(fs)
	config := fs.String("config", "", "a run config whose ground_truth_store (or services.executor) to use")
	model := fs.String("model", "", "list: only this model")
	mode := fs.String("mode", "", "list: only this mode (standard or extended; needs --model)")
	dataset := fs.String("dataset", "", "list: only this dataset")
	samples := fs.Bool("samples", false, "list: every repeated Phase 0 sample (key \"sample\" ≥ 2 after each ground truth), not only the ground truth")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: triage ground-truth import [flags] FILE\n       triage ground-truth list [flags] [CONFIG.yaml]\n\nThe store is the config's ground_truth_store (--config, or list's CONFIG),\nelse --store; list never creates one.\n\nflags:\n")
		fs.PrintDefaults()
	}
	rest, err := parseFlags(fs, args[1:], env.Getenv, 1)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if args[0] == "list" && len(rest) == 1 {
		*config, rest = rest[0], nil
	}
	client, closeExec, err := openExecutor(ctx, *storeLoc, *addr, *config, dial, args[0] == "list", env)
	if err != nil {
		return err
	}
	defer closeInto(&err, closeExec)
	if args[0] == "list" {
		return listGroundTruth(ctx, client, *model, *mode, *dataset, *samples, env.Stdout)
	}
	return importGroundTruth(ctx, client, first(rest), env)
}

// openExecutor returns an Executor client over the ground-truth store: the
// config's ground_truth_store (or its services.executor) when config is
// set, else addr when set, else storeLoc in process. mustExist refuses a
// local store that does not exist yet (listing never creates one).
func openExecutor(ctx context.Context, storeLoc, addr, config string, dial *dialFlags, mustExist bool, env Env) (_ triagev1.ExecutorServiceClient, closeAll func() error, err error) {
	if config != "" {
		load := loadConfig
		if mustExist { // listing makes no folder either
			load = readConfig
		}
		cfg, err := load(config)
		if err != nil {
			return nil, nil, err
		}
		storeLoc, addr = cfg.Path(cfg.GroundTruthStore), cfg.Services.Executor
	}
	var st groundtruth.Store
	closeStore := func() error { return nil }
	if addr == "" {
		if path, local := isStorePath(storeLoc); local && mustExist {
			if kind, err := sniff(path); err != nil || kind == kindMissing {
				return nil, nil, fmt.Errorf("no ground-truth store at %s (nothing to list; import or run a baseline first)", path)
			}
		}
		open := groundtruth.Open
		if mustExist { // listing: only read
			open = groundtruth.OpenToRead
		} else if err := ensureParent(storeLoc); err != nil { // as run and baseline do
			return nil, nil, err
		}
		if st, err = open(ctx, storeLoc); err != nil {
			return nil, nil, fmt.Errorf("ground-truth store %s: %w", sqldb.Redact(storeLoc), err)
		}
		closeStore = st.Close
		st = groundtruth.Instrument(st, env.meterProvider())
	}
	exec, closeConn, err := connectExecutor(st, addr, dial, env)
	if err != nil {
		return nil, nil, errors.Join(err, closeStore())
	}
	return exec, func() error { return errors.Join(closeConn(), closeStore()) }, nil
}

// connectExecutor returns an Executor client: over st in process when addr
// is "", else dialled at addr; closeConn closes the connection, not st.
func connectExecutor(st groundtruth.Store, addr string, dial *dialFlags, env Env) (_ triagev1.ExecutorServiceClient, closeConn func() error, err error) {
	conns, err := connect([]string{"executor"}, map[string]string{"executor": addr}, dial, serviceDeps{store: st, tel: env.Telemetry}, env.Stderr)
	if err != nil {
		return nil, nil, err
	}
	return triagev1.NewExecutorServiceClient(conns.conns["executor"]), conns.Close, nil
}

// importGroundTruth imports a JSONL file (or stdin) in one atomic import.
func importGroundTruth(ctx context.Context, client triagev1.ExecutorServiceClient, path string, env Env) error {
	name, r, closeFile, err := openInput(path, env.Stdin)
	if err != nil {
		return err
	}
	defer closeFile()
	resp, err := gtfile.Import(ctx, client, name, r)
	if err != nil {
		return err
	}
	if resp.GetReceived() == 0 {
		// An import that kept nothing failed at its job (docs/reference.md):
		// an empty file is most likely the wrong one.
		return fmt.Errorf("%s: no record in it (blank lines and nothing else): nothing was imported", name)
	}
	fmt.Fprintf(env.Stdout, "%s: %d records imported (%d inserted, %d updated, %d unchanged)\n",
		name, resp.GetReceived(), resp.GetInserted(), resp.GetUpdated(), resp.GetUnchanged())
	return nil
}

func listGroundTruth(ctx context.Context, client triagev1.ExecutorServiceClient, model, mode, dataset string, samples bool, w io.Writer) error {
	req := &triagev1.ListGroundTruthRequest{Dataset: dataset, PageSize: int32(groundtruth.MaxPageSize), AllSamples: samples}
	if model != "" || mode != "" {
		req.Solver = &triagev1.Solver{Model: model, Mode: gtfile.Mode(mode)}
	}
	bw := bufio.NewWriter(w)
	for {
		resp, err := client.ListGroundTruth(ctx, req)
		if err != nil {
			return err
		}
		for _, r := range resp.GetRecords() {
			b, err := gtfile.FormatLine(r)
			if err != nil {
				return err
			}
			bw.Write(append(b, '\n'))
		}
		if resp.GetNextPageToken() == "" {
			return bw.Flush()
		}
		req.PageToken = resp.GetNextPageToken()
	}
}
