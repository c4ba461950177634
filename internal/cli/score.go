package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/runs/scoring"
	scoringsvc "github.com/triage-eval/triage/services/scoring"
)

func runScore(ctx context.Context, args []string, env Env) (err error) {
	fs := newFlagSet("score", env.Stderr)
	scoringAddr := fs.String("scoring-addr", "", "remote Scoring service (host:port); default: in process")
	execAddr := fs.String("executor-addr", "", "remote Executor the in-process Scoring service calls (host:port); default: in process")
	oracleAddr := fs.String("oracle-addr", "", "remote Oracle the in-process Scoring service calls (host:port); default: in process")
	dial := addDialFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: triage score [flags] [FILE]

Scores one plan: reads a JSON document from FILE (or standard input, or "-")
and writes every metric as JSON to standard output. See docs/reference.md for the
format. Flags can also be set with TRIAGE_<FLAG>.

flags:
`)
		fs.PrintDefaults()
	}
	rest, err := parseFlags(fs, args, env.Getenv, 1)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	name, data, err := readInput(first(rest), env.Stdin)
	if err != nil {
		return err
	}
	in, err := scoring.ParseInput(name, data)
	if err != nil {
		return err
	}
	if *scoringAddr != "" && (*execAddr != "" || *oracleAddr != "") {
		return fmt.Errorf("%w: --executor-addr and --oracle-addr are for a Scoring service in process; a remote one (--scoring-addr) has its own", ErrUsage)
	}
	deps := serviceDeps{tel: env.Telemetry}
	upstreams := map[string]string{"executor": *execAddr, "oracle": *oracleAddr}
	var remote []string
	for _, name := range []string{"executor", "oracle"} {
		if upstreams[name] != "" {
			remote = append(remote, name)
		}
	}
	if len(remote) > 0 {
		ups, err := connect(remote, upstreams, dial, deps, env.Stderr)
		if err != nil {
			return err
		}
		defer closeInto(&err, ups.Close)
		if cc, ok := ups.conns["executor"]; ok {
			deps.upstream.executor = scoringsvc.RemoteExecutor(triagev1.NewExecutorServiceClient(cc))
		}
		if cc, ok := ups.conns["oracle"]; ok {
			deps.upstream.oracle = scoringsvc.RemoteOracle(triagev1.NewOracleServiceClient(cc))
		}
	}
	conns, err := connect([]string{"scoring"}, map[string]string{"scoring": *scoringAddr}, dial, deps, env.Stderr)
	if err != nil {
		return err
	}
	defer closeInto(&err, conns.Close)
	out, err := scoring.Score(ctx, triagev1.NewScoringServiceClient(conns.conns["scoring"]), name, in)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(env.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
