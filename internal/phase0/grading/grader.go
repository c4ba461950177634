package grading

import (
	"context"
	"fmt"
)

// CodeRunner runs a program against a code problem's tests; the sandbox
// implements it.
type CodeRunner interface {
	// RunTests runs program against every test of c (public, then private),
	// stopping at the first failure, and returns the verdict. An error means
	// the tests could not be run at all.
	RunTests(ctx context.Context, program string, c *CodeSpec) (Verdict, error)
}

// Judge settles an exact-answer item that normalized matching could not.
type Judge interface {
	// Equivalent reports whether response's final answer means the same as
	// reference for question. An error means no verdict was obtained.
	Equivalent(ctx context.Context, question, reference, response string) (bool, string, error)
}

// Grader grades responses of every kind.
type Grader struct {
	code  CodeRunner
	judge Judge
}

// New returns a Grader. code may be nil (code items then fail to grade with
// an error); judge may be nil (exact items are settled by matching alone).
func New(code CodeRunner, judge Judge) *Grader {
	return &Grader{code: code, judge: judge}
}

// Grade grades content, the final content of a response (never its
// reasoning), against spec. question is the problem text, for the judge.
func (g *Grader) Grade(ctx context.Context, spec Spec, question, content string) (Verdict, error) {
	switch spec.Kind {
	case KindMath:
		return GradeMath(spec, content), nil
	case KindChoice:
		return GradeChoice(spec, content), nil
	case KindExact:
		v := GradeExact(spec, content)
		if v.Correct() || g.judge == nil || v.Outcome == OutcomeNoAnswer {
			return v, nil
		}
		same, why, err := g.judge.Equivalent(ctx, question, spec.Answer, content)
		if err != nil {
			return Verdict{}, fmt.Errorf("judge: %w", err)
		}
		if same {
			v.Outcome = OutcomeCorrect
		}
		v.Detail = "judge: " + why
		return v, nil
	case KindCode:
		if g.code == nil {
			return Verdict{}, fmt.Errorf("no code sandbox is configured")
		}
		program, ok := ExtractCode(content)
		if !ok {
			return Verdict{Outcome: OutcomeNoAnswer, Detail: "no fenced code block"}, nil
		}
		v, err := g.code.RunTests(ctx, program, spec.Code)
		v.Extracted = program
		return v, err
	default:
		return Verdict{}, fmt.Errorf("grading.kind: unknown kind %q", spec.Kind)
	}
}
