package grading

import "context"

// CodeRunnerFunc adapts a function to CodeRunner (tests, or a runner
// wrapped with logging or metrics).
type CodeRunnerFunc func(ctx context.Context, program string, c *CodeSpec) (Verdict, error)

// RunTests calls f.
func (f CodeRunnerFunc) RunTests(ctx context.Context, program string, c *CodeSpec) (Verdict, error) {
	return f(ctx, program, c)
}
