package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
)

// Env is what a command may use of its process.
type Env struct {
	// Stdin, Stdout and Stderr are the standard streams.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Getenv reads an environment variable.
	Getenv func(string) string
}

// command is one subcommand.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, env Env) error
}

func commands() map[string]command {
	return map[string]command{
		"serve":        {summary: "run TRIAGE gRPC services", run: runServe},
		"baseline":     {summary: "run Phase 0: solve and grade every problem, store the ground truth", run: runBaseline},
		"budget-aware": {summary: "re-solve the α = 1 plans' picks with the budget banner and compare", run: runBudgetAware},
		"run":          {summary: "run or resume the grid a config describes", run: runRun},
		"report":       {summary: "write a run's tables (Markdown, CSV, JSON, LaTeX)", run: runReport},
		"demo":         {summary: "run the bundled synthetic sample end to end", run: runDemo},
		"ground-truth": {summary: "import (JSONL) or list the stored Phase 0 ground truth", run: runGroundTruth},
		"score":        {summary: "score one plan: every metric from one JSON document", run: runScore},
		"import":       {summary: "convert a benchmark's files to canonical problem JSONL", run: runImport},
	}
}

// ErrUsage marks errors caused by how the command was called; main exits 2.
var ErrUsage = errors.New("usage")

// Run runs the subcommand named by args[0].
func Run(ctx context.Context, args []string, env Env) error {
	cmds := commands()
	if len(args) == 0 {
		usage(env.Stderr, cmds)
		return fmt.Errorf("%w: no command given", ErrUsage)
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(env.Stdout, cmds)
		return nil
	}
	cmd, ok := cmds[args[0]]
	if !ok {
		usage(env.Stderr, cmds)
		return fmt.Errorf("%w: unknown command %q", ErrUsage, args[0])
	}
	return cmd.run(ctx, args[1:], env)
}

func usage(w io.Writer, cmds map[string]command) {
	names := make([]string, 0, len(cmds))
	for name := range cmds {
		names = append(names, name)
	}
	slices.Sort(names)
	fmt.Fprint(w, "usage: triage <command> [flags]\n\ncommands:\n")
	for _, name := range names {
		fmt.Fprintf(w, "  %-10s %s\n", name, cmds[name].summary)
	}
	fmt.Fprint(w, "\nRun 'triage <command> -h' for a command's flags.\n")
}
