package solving

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/planning/prompts"
	"github.com/triage-eval/triage/internal/store/problems"
)

// Completer is the part of the LLM gateway a Solver uses; *llm.Client
// implements it.
type Completer interface {
	Complete(ctx context.Context, req llm.Request) (llm.Response, error)
}

// Attempt is one solve of one problem.
type Attempt struct {
	// Template is the solver prompt template used.
	Template prompts.Template
	// Response is the model's response; zero when the call failed.
	Response llm.Response
	// Verdict is the grade; zero when not graded.
	Verdict grading.Verdict
	// Gradeable reports that the call succeeded and the answer was graded
	// (or counted incorrect for truncation).
	Gradeable bool
	// Truncated reports an output cut at the token limit: incorrect, not
	// graded.
	Truncated bool
	// Error says why the attempt is not gradeable.
	Error string
	// CallFailed says the model call itself failed (after its retries):
	// the endpoint, not the answer, is why the attempt is not gradeable.
	CallFailed bool
	// Judge is the grading judge's model call, when one answered, whether
	// or not it gave a usable verdict: a run bills it (SPEC §9).
	Judge *grading.JudgeCall
	// MeasuredAt is when the response arrived (the original call's time for
	// a cached response), or when the call failed.
	MeasuredAt time.Time
}

// Correct reports whether the attempt counts as solved.
func (a Attempt) Correct() bool {
	return a.Gradeable && !a.Truncated && a.Verdict.Correct()
}

// Cost is the output tokens spent, reasoning included (SPEC §1).
func (a Attempt) Cost() int64 { return int64(a.Response.Cost) }

// ResponseSHA256 is the hex SHA-256 of the raw response body, or "".
func (a Attempt) ResponseSHA256() string {
	if len(a.Response.Raw) == 0 {
		return ""
	}
	sum := sha256.Sum256(a.Response.Raw)
	return hex.EncodeToString(sum[:])
}

// Solver prompts a model with problems and grades the answers.
type Solver struct {
	grader *grading.Grader
	now    func() time.Time
}

// New returns a Solver grading with g; now stamps failed attempts.
func New(g *grading.Grader, now func() time.Time) *Solver {
	return &Solver{grader: g, now: now}
}

// MaxSamples bounds the samples per problem one Phase 0 run may ask for
// (SPEC §9 repeated Phase 0, `baseline.samples`): each is a model call on
// every problem of every solver.
const MaxSamples = 20

// Solve prompts c with p and grades the answer. bannerTokens > 0 prepends
// the budget-aware banner stating that many tokens. The error is non-nil
// only when ctx ended (the attempt then holds only Judge, a judge's call
// that answered before) or when c drained before sending the call (an
// error wrapping llm.ErrNotSent): every other failure is an attempt that
// is not gradeable.
func (s *Solver) Solve(ctx context.Context, c Completer, p problems.Problem, bannerTokens int64) (Attempt, error) {
	return s.solve(ctx, c, p, bannerTokens, 0)
}

// SolveSample is Solve, without banner, for repeated Phase 0 sample j
// (1-based): sample 1 is the call Solve makes; a sample j ≥ 2 sends the
// same request but is a model call of its own (llm.Request.Sample), not
// the cached answer of another sample.
func (s *Solver) SolveSample(ctx context.Context, c Completer, p problems.Problem, j int) (Attempt, error) {
	return s.solve(ctx, c, p, 0, j)
}

// solve is Solve with the request's sample index.
func (s *Solver) solve(ctx context.Context, c Completer, p problems.Problem, bannerTokens int64, sample int) (Attempt, error) {
	spec, tmpl, req, err := render(p, bannerTokens, sample)
	a := Attempt{Template: tmpl}
	if err != nil {
		return s.failed(a, err.Error()), nil
	}
	resp, err := c.Complete(ctx, req)
	if ctx.Err() != nil {
		return Attempt{}, ctx.Err()
	}
	if errors.Is(err, llm.ErrNotSent) {
		// Not an attempt: its client drains (the caller stopping), and the
		// next run makes the call.
		return Attempt{}, err
	}
	if err != nil {
		a.CallFailed = true
		return s.failed(a, CallFailedPrefix+describeCall(err)), nil
	}
	a.Response = resp
	a.MeasuredAt = resp.ObtainedAt
	if !resp.Measured() { // no SPEC §1 cost: not ground truth (nor cached, package llm)
		return s.failed(a, "the provider reported no output tokens"), nil
	}
	if resp.Truncated {
		a.Gradeable, a.Truncated = true, true
		return a, nil
	}
	v, err := s.grader.Grade(ctx, spec, p.Text, grading.StripThinking(resp.Content))
	if ctx.Err() != nil {
		// The attempt is not reported; its judge's call, if one answered,
		// is the caller's to bill.
		return Attempt{Judge: v.Judge}, ctx.Err()
	}
	a.Judge = v.Judge
	if err != nil {
		return s.failed(a, "grading failed: "+err.Error()), nil
	}
	a.Verdict, a.Gradeable = v, true
	return a, nil
}

// Request is the model call Solve (bannerTokens) or SolveSample (sample j)
// makes for p: the same request, so the same cache key (package llm), which
// lets a caller price it (a quote, a spend cap) or send it ahead of time in
// a batch (llm.Client.Prefill). The error says why p cannot be prompted;
// Solve then reports it.
func Request(p problems.Problem, bannerTokens int64, sample int) (llm.Request, error) {
	_, _, req, err := render(p, bannerTokens, sample)
	return req, err
}

// JudgeRequest is the call a grading judge makes on an answer to p, its
// response left empty, and whether grading p may make one at all (an
// exact answer, which matching may not settle): what a spend cap prices
// before the solve, adding the answer's tokens (SPEC §9).
func JudgeRequest(p problems.Problem) (llm.Request, bool) {
	spec, err := grading.ParseSpec(p.Grading)
	if err != nil || !spec.MayGoToJudge() {
		return llm.Request{}, false
	}
	tmpl, err := prompts.Judge()
	if err != nil {
		return llm.Request{}, false
	}
	return grading.JudgeRequest(tmpl, p.Text, spec.Answer, ""), true
}

// render returns p's grading spec, solver template and request, the
// request marked as repeated Phase 0 sample j (llm.Request.Sample).
func render(p problems.Problem, bannerTokens int64, sample int) (grading.Spec, prompts.Template, llm.Request, error) {
	spec, err := grading.ParseSpec(p.Grading)
	if err != nil {
		return spec, prompts.Template{}, llm.Request{}, err
	}
	tmpl, err := prompts.Solver(string(spec.Kind))
	if err != nil {
		return spec, prompts.Template{}, llm.Request{}, err
	}
	banner := ""
	if bannerTokens > 0 {
		b, err := prompts.BudgetAwareBanner()
		if err != nil {
			return spec, tmpl, llm.Request{}, err
		}
		banner = b.Banner(bannerTokens)
	}
	prompt := tmpl.SolverPrompt(p.Text, banner)
	return spec, tmpl, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: prompt}}, Sample: sample}, nil
}

// CallFailedPrefix starts the Error of an attempt whose model call failed;
// describeCall's reason follows.
const CallFailedPrefix = "model call failed: "

// describeCall says why a model call failed: the endpoint's name and
// llm.Describe's reason (the provider's status and message, or why the
// connection failed), never the endpoint's address.
func describeCall(err error) string {
	var named *llm.EndpointError
	if errors.As(err, &named) {
		return fmt.Sprintf("endpoint %q: %s", named.Endpoint, llm.Describe(err))
	}
	return llm.Describe(err)
}

// failed marks a as not gradeable for reason.
func (s *Solver) failed(a Attempt, reason string) Attempt {
	a.Gradeable, a.Error = false, reason
	if a.MeasuredAt.IsZero() {
		a.MeasuredAt = s.now()
	}
	return a
}
