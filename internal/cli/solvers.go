package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/phase0/sandbox"
	"github.com/triage-eval/triage/internal/phase0/solving"
	"github.com/triage-eval/triage/services/executor"
	"github.com/triage-eval/triage/services/planner"
)

// solveOptions configures grading for processes that run solvers.
type solveOptions struct {
	// judgeEndpoint names the endpoint judging exact answers; "" for none.
	judgeEndpoint string
	// python is the interpreter code runs with; "" means python3 on PATH.
	python string
	// codeConcurrency is how many programs run at once.
	codeConcurrency int
	// info, when set, is told what the code sandbox enforces once it has
	// started (triage serve logs it).
	info func(string)
}

// unavailableRunner stands in for a sandbox that could not start: code
// items are then not gradeable, with the reason.
type unavailableRunner struct{ err error }

func (u unavailableRunner) RunTests(context.Context, string, *grading.CodeSpec) (grading.Verdict, error) {
	return grading.Verdict{}, u.err
}

// newSolver builds the grader and solver; the endpoints, response cache and
// getenv of llmCfg are shared with the Planner. The solvers' clients drain
// with llmCfg.Drain; the judge's do not, since a judge grades an answer
// already paid for, which a drain lets finish. A sandbox that cannot start
// does not stop the process: code items become not gradeable, and warn says
// why.
func newSolver(llmCfg planner.Config, o solveOptions, warn func(string)) (*solving.Solver, *llm.Clients, error) {
	clients := llm.NewClients(append(llmCfg.GatewayOptions(), llm.WithDrain(llmCfg.Drain))...)
	var judge grading.Judge
	if o.judgeEndpoint != "" {
		ep, ok := llmCfg.Endpoints[o.judgeEndpoint]
		if !ok {
			return nil, nil, fmt.Errorf("%w: judge endpoint %q is not in the endpoints file", ErrUsage, o.judgeEndpoint)
		}
		c, err := llm.NewClients(llmCfg.GatewayOptions()...).Get("judge/"+o.judgeEndpoint, ep)
		if err != nil {
			return nil, nil, err
		}
		if judge, err = grading.NewLLMJudge(c); err != nil {
			return nil, nil, err
		}
	}
	var code grading.CodeRunner
	sb, err := sandbox.New(sandbox.Options{Python: o.python, Concurrency: o.codeConcurrency, MeterProvider: llmCfg.MeterProvider})
	if err != nil {
		warn(fmt.Sprintf("code problems cannot be graded: %v", err))
		code = unavailableRunner{fmt.Errorf("code sandbox unavailable: %w", err)}
	} else {
		code = sb
		// sandbox.New lowered this process's oom_score_adj as far as it
		// may; the kernel takes programs first unless it stays high.
		iso := sb.Isolation()
		if iso.ServerOOMAtRisk() {
			warn(fmt.Sprintf("the kernel's OOM killer may pick this process before a graded program's: %s", iso.OOM))
		}
		if o.info != nil {
			o.info("code sandbox: " + iso.String())
		}
	}
	now := llmCfg.Now
	if now == nil {
		now = time.Now
	}
	return solving.New(grading.New(code, judge), now), clients, nil
}

// newBaseline is what an Executor needs to run Phase 0.
func newBaseline(llmCfg planner.Config, o solveOptions, warn func(string)) (*executor.Baseline, error) {
	s, clients, err := newSolver(llmCfg, o, warn)
	if err != nil {
		return nil, err
	}
	return &executor.Baseline{Endpoints: llmCfg.Endpoints, Clients: clients, Solver: s}, nil
}
