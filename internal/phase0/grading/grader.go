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
	// Equivalent says whether response's final answer means the same as
	// reference for question. An error means no verdict was obtained; the
	// Judgment's Call still says what a model call that answered without a
	// usable verdict cost.
	Equivalent(ctx context.Context, question, reference, response string) (Judgment, error)
}

// Judgment is a judge's answer on one response.
type Judgment struct {
	// Same reports that the response's final answer matches the reference.
	Same bool
	// Why explains the decision briefly.
	Why string
	// Call is the model call that answered, what a run bills (SPEC §9);
	// nil when none did.
	Call *JudgeCall
}

// JudgeCall is a grading judge's model call as its provider reported it:
// what a run bills for it (SPEC §9), under the judge's own endpoint.
type JudgeCall struct {
	// Endpoint names the judge's endpoint.
	Endpoint string
	// PromptTokens and OutputTokens are the usage the provider reported
	// (output by SPEC §1's cost rule).
	PromptTokens, OutputTokens int64
	// Cached reports that the response cache answered: the call cost
	// nothing.
	Cached bool
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
// On an error the verdict is zero but for Judge: what a judge's call that
// answered without a usable verdict cost.
func (g *Grader) Grade(ctx context.Context, spec Spec, question, content string) (Verdict, error) {
	switch spec.Kind {
	case KindMath:
		return GradeMath(spec, content), nil
	case KindChoice:
		return GradeChoice(spec, content), nil
	case KindExact:
		v := GradeExact(spec, content)
		if v.Correct() || g.judge == nil || v.Outcome == OutcomeNoAnswer || !spec.MayGoToJudge() {
			return v, nil
		}
		j, err := g.judge.Equivalent(ctx, question, spec.Answer, content)
		if err != nil {
			return Verdict{Judge: j.Call}, fmt.Errorf("judge: %w", err)
		}
		if j.Same {
			v.Outcome = OutcomeCorrect
		}
		v.Detail, v.Judge = "judge: "+j.Why, j.Call
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
