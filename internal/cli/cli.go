package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	otelcodes "go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"

	"github.com/triage-eval/triage/internal/platform/telemetry"
	"github.com/triage-eval/triage/internal/platform/version"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
)

// Env is what a command may use of its process.
type Env struct {
	// Stdin, Stdout and Stderr are the standard streams.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Getenv reads an environment variable.
	Getenv func(string) string
	// Telemetry instruments the command's calls and the services it runs;
	// when nil, Run sets it up from the OTEL_* environment (export is off
	// unless asked for) and flushes it when the command ends.
	Telemetry *telemetry.Telemetry
	// Stop ends, with its cause, when the user asks the command to stop
	// (the first interrupt). A command that makes model calls (run,
	// baseline, budget-aware) then drains: it starts no more calls, lets
	// those in flight be answered and stored, and returns; the others stop
	// at once, as when the context given to Run ends. That context ending
	// (the second interrupt) abandons the calls in flight. Nil: only the
	// context stops a command.
	Stop context.Context
	// hurry, for a server command stopped by Stop, closes when the
	// context given to Run ends (the second interrupt): the server's drain
	// and grace end at once. Run sets it.
	hurry <-chan struct{}
}

// stopAsked reports whether Stop has ended.
func (e Env) stopAsked() bool { return e.Stop != nil && e.Stop.Err() != nil }

// stopChan is the channel that closes when Stop ends; nil never does.
func (e Env) stopChan() <-chan struct{} {
	if e.Stop == nil {
		return nil
	}
	return e.Stop.Done()
}

// command is one subcommand.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, env Env) error
	// server marks a command that serves calls: each call is its own
	// trace (or its caller's), so the command has no span of its own; it
	// logs the build itself.
	server bool
	// quiet marks a command that does no work, which does not start by
	// saying which build runs.
	quiet bool
	// drains marks a command that, asked to stop (Env.Stop), finishes the
	// model calls in flight and stores them before it returns.
	drains bool
}

func commands() map[string]command {
	return map[string]command{
		"serve":               {summary: "run TRIAGE services (gRPC, and HTTP/JSON with --http-listen)", run: runServe, server: true},
		"baseline":            {summary: "run Phase 0: solve and grade every problem, store the ground truth", run: runBaseline, drains: true},
		"budget-aware":        {summary: "re-solve the α = 1 plans' picks with the budget banner and compare", run: runBudgetAware, drains: true},
		"run":                 {summary: "run or resume the grid a config describes", run: runRun, drains: true},
		"quote":               {summary: "state what a config's study still costs before any model call: calls, tokens, dollars per phase and endpoint", run: runQuote},
		"report":              {summary: "write a run's report: summary, report.html, figures, tables (Markdown, CSV, JSON, LaTeX)", run: runReport},
		"demo":                {summary: "run the bundled synthetic sample end to end", run: runDemo},
		"ground-truth":        {summary: "import (JSONL) or list the stored Phase 0 ground truth", run: runGroundTruth},
		"score":               {summary: "score one plan: every metric from one JSON document", run: runScore},
		"import":              {summary: "convert a benchmark's files to canonical problem JSONL", run: runImport},
		"import-ground-truth": {summary: "make ground truth from inspect_ai or lm-evaluation-harness logs (import or --out JSONL)", run: runImportGroundTruth},
		"version":             {summary: "print this build: module version, VCS revision, Go version (also --version)", run: runVersion, quiet: true},
	}
}

// runVersion prints the build on one line.
func runVersion(_ context.Context, args []string, env Env) error {
	if len(args) > 0 {
		return fmt.Errorf("%w: version takes no arguments", ErrUsage)
	}
	fmt.Fprintln(env.Stdout, "triage", version.Current())
	return nil
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
	if args[0] == "--version" || args[0] == "-version" {
		args[0] = "version"
	}
	cmd, ok := cmds[args[0]]
	if !ok {
		usage(env.Stderr, cmds)
		return fmt.Errorf("%w: unknown command %q", ErrUsage, args[0])
	}
	if env.Stop != nil {
		if cmd.drains {
			defer context.AfterFunc(env.Stop, func() { fmt.Fprintln(env.Stderr, drainNotice) })()
		} else {
			env.hurry = ctx.Done()
			var cancel context.CancelCauseFunc
			ctx, cancel = context.WithCancelCause(ctx)
			defer cancel(nil)
			defer context.AfterFunc(env.Stop, func() { cancel(context.Cause(env.Stop)) })()
		}
	}
	if env.Telemetry == nil {
		tel, err := telemetry.Setup(ctx, "triage", env.Getenv)
		if err != nil {
			return err
		}
		defer flushTelemetry(tel, func(msg string, args ...any) { fmt.Fprintln(env.Stderr, append([]any{"warning:", msg}, args...)...) })
		env.Telemetry = tel
	}
	if cmd.server {
		return cmd.run(ctx, args[1:], env)
	}
	if !cmd.quiet {
		fmt.Fprintln(env.Stderr, "triage", version.Current())
	}
	err := traced(ctx, "triage "+args[0], env, func(ctx context.Context) error { return cmd.run(ctx, args[1:], env) })
	return stopped(ctx, env, err)
}

// drainNotice is what a draining command says when asked to stop.
const drainNotice = "stopping: no new model call starts (a remote executor finishes the problems already sent to it); the calls in flight finish and are stored (interrupt again to abandon them: they would be asked again)"

// stopped says why a command that failed after ctx ended, or after it
// drained (Env.Stop), stopped: the cause (e.g. "interrupt signal
// received"), not only the "context canceled" its calls report, and that
// what was stored is kept.
func stopped(ctx context.Context, env Env, err error) error {
	if err != nil && ctx.Err() == nil && env.stopAsked() {
		cause := context.Cause(env.Stop)
		if orchestrator.StopOutcome(err) {
			drained := fmt.Errorf("stopped: %w; the model calls in flight were answered and stored, and the same command resumes", cause)
			return withBesidesStop(drained, err, cause)
		}
		return fmt.Errorf("stopped (%v): %w", cause, err)
	}
	if err == nil || ctx.Err() == nil {
		return err
	}
	cause := context.Cause(ctx)
	if errors.Is(err, cause) || orchestrator.StopOutcome(err) {
		stopped := fmt.Errorf("stopped: %w; what was stored is kept, and the same command resumes", cause)
		return withBesidesStop(stopped, err, cause)
	}
	return fmt.Errorf("stopped (%v): %w", cause, err)
}

// withBesidesStop joins stop, what a stopped command says, with the errors
// of err besides how it stopped (besidesStop).
func withBesidesStop(stop, err, cause error) error {
	return errors.Join(append([]error{stop}, besidesStop(err, cause)...)...)
}

// besidesStop are the errors joined (at any depth, wrapped or not) with a
// stopped command's stop outcome or cause that are not themselves how
// stopped work ends: a solver its spend cap stopped before the stop, say.
func besidesStop(err, cause error) []error {
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range joined.Unwrap() {
			out = append(out, besidesStop(e, cause)...)
		}
		return out
	}
	if !orchestrator.StopOutcome(err) && !errors.Is(err, cause) {
		return []error{err}
	}
	if inner := errors.Unwrap(err); inner != nil {
		return besidesStop(inner, cause)
	}
	return nil
}

// meterProvider is where the command's metrics go; nil records nothing.
func (e Env) meterProvider() metric.MeterProvider {
	if e.Telemetry == nil {
		return nil
	}
	return e.Telemetry.MeterProvider
}

// traced runs f in a span called name: the root of the command's trace, or
// a child of the caller's when the environment carries one (TRACEPARENT).
// Every service the command calls, in process or remote, joins the trace.
func traced(ctx context.Context, name string, env Env, f func(context.Context) error) error {
	ctx = env.Telemetry.FromEnvironment(ctx, env.Getenv)
	ctx, span := env.Telemetry.TracerProvider.Tracer("github.com/triage-eval/triage/internal/cli").Start(ctx, name)
	defer span.End()
	err := f(ctx)
	if err != nil {
		span.SetStatus(otelcodes.Error, err.Error())
	}
	return err
}

func usage(w io.Writer, cmds map[string]command) {
	names := make([]string, 0, len(cmds))
	width := 0
	for name := range cmds {
		names = append(names, name)
		width = max(width, len(name))
	}
	slices.Sort(names)
	fmt.Fprint(w, "usage: triage <command> [flags]\n\ncommands:\n")
	for _, name := range names {
		fmt.Fprintf(w, "  %-*s  %s\n", width, name, cmds[name].summary)
	}
	fmt.Fprint(w, "\nRun 'triage <command> -h' for a command's flags.\n")
}
