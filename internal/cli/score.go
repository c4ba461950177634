package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/runs/scoring"
)

func runScore(ctx context.Context, args []string, env Env) (err error) {
	fs := newFlagSet("score", env.Stderr)
	execAddr := fs.String("executor-addr", "", "remote Executor (host:port); default: in process")
	oracleAddr := fs.String("oracle-addr", "", "remote Oracle (host:port); default: in process")
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
	conns, err := connect([]string{"executor", "oracle"}, map[string]string{"executor": *execAddr, "oracle": *oracleAddr}, dial, serviceDeps{tel: env.Telemetry}, env.Stderr)
	if err != nil {
		return err
	}
	defer closeInto(&err, conns.Close)
	out, err := scoring.Score(ctx, scoring.Clients{
		Executor: triagev1.NewExecutorServiceClient(conns.conns["executor"]),
		Oracle:   triagev1.NewOracleServiceClient(conns.conns["oracle"]),
	}, name, in)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(env.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
