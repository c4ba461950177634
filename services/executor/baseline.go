package executor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/triage-eval/triage/internal/protocol/pool"

	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/phase0/solving"
	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/protocol/costrule"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/problems"
)

// Baseline is what the Executor needs to run Phase 0.
type Baseline struct {
	// Endpoints are the named endpoints a request may choose from.
	Endpoints map[string]llm.Endpoint
	// Clients holds one gateway client per endpoint (and its cache).
	Clients *llm.Clients
	// Solver prompts and grades.
	Solver *solving.Solver
	// Batch bounds the batches of requests that ask for them (their
	// zero fields take llm's defaults).
	Batch llm.BatchOptions
	// Stop, when it closes, drains every baseline: no model call starts
	// after it, the calls in flight are answered, stored and reported, a
	// provider batch being waited for is left to the next call (it stays
	// recorded), and the stream ends with StopError. Nil never stops.
	Stop <-chan struct{}
	// StopError ends a drained baseline's stream: errStopped (Canceled:
	// the caller stopped it, as triage baseline's first interrupt does)
	// when nil; a served Executor shutting down gives Unavailable.
	StopError error
}

// stopError is the error a drained baseline ends with (StopError).
func (b *Baseline) stopError() error {
	if b.StopError != nil {
		return b.StopError
	}
	return errStopped
}

// errStopped ends a baseline drained by Baseline.Stop (Canceled: the
// caller stopped it, and the next call resumes it).
var errStopped = fmt.Errorf("the baseline was stopped before every call was made; what was answered is stored, and the next call resumes: %w", context.Canceled)

// stopped reports whether stop has closed.
func stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// Baseline limits.
const (
	// MaxBaselineProblems bounds the problems of one RunBaseline call: each
	// is a model call on the server's keys, and a call's length grows with
	// them (10,000 problems at a minute each and concurrency 4 take 42 h).
	// Clients send larger runs in batches; triage baseline sends 1,000.
	MaxBaselineProblems = 10_000
	// DefaultBaselineConcurrency is the problems solved at once when the
	// request leaves it 0.
	DefaultBaselineConcurrency = 4
	// MaxBaselineConcurrency bounds the request's concurrency.
	MaxBaselineConcurrency = 256
	// maxExtracted bounds the extracted answer sent back per item.
	maxExtracted = 4096
)

// errNoBaseline is returned when the Executor was started without solver
// endpoints.
var errNoBaseline = &apperr.PreconditionError{Reason: "this executor runs no baselines; start it with solver endpoints (--endpoints)"}

// RunBaseline solves every pending problem once, or once per pending sample
// when the request asks for samples (SPEC §9), stores each graded result as
// it arrives, and streams the results. Counts (started, done, summary) are
// of calls: problems × samples.
func (s *Service) RunBaseline(req *triagev1.RunBaselineRequest, stream grpc.ServerStreamingServer[triagev1.RunBaselineResponse]) error {
	ctx := stream.Context()
	if s.store == nil {
		return errNoStore
	}
	if s.baseline == nil {
		return errNoBaseline
	}
	probs, err := s.validateBaseline(req)
	if err != nil {
		return err
	}
	solver := solverFromProto(req.GetSolver())
	ep := s.baseline.Endpoints[req.GetEndpoint()]
	client, err := s.baseline.Clients.Get("baseline/"+req.GetEndpoint(), ep)
	if err != nil {
		return err
	}
	if stopped(s.baseline.Stop) {
		return s.baseline.stopError() // before any event: the caller may send it again elsewhere
	}
	k := max(int(req.GetSamples()), 1)
	pending, stale, err := s.pendingJobs(ctx, solver, probs, k, req)
	if err != nil {
		return err
	}
	total := len(probs) * k
	if err := stream.Send(&triagev1.RunBaselineResponse{Event: &triagev1.RunBaselineResponse_Started{Started: &triagev1.BaselineStarted{
		Total: int32(total), Skipped: int32(total - len(pending)), Pending: int32(len(pending)), Stale: int32(stale),
	}}}); err != nil {
		return err
	}
	if req.GetBatch() && len(pending) > 0 {
		if err := s.prefill(ctx, client, pending, stream.Send); err != nil {
			return err
		}
		if stopped(s.baseline.Stop) {
			return s.baseline.stopError()
		}
	}
	concurrency := int(req.GetConcurrency())
	if concurrency == 0 {
		concurrency = DefaultBaselineConcurrency
	}
	summary, err := s.solveAll(ctx, client, solver, pending, concurrency, stream.Send)
	if err != nil {
		return err
	}
	return stream.Send(&triagev1.RunBaselineResponse{Event: &triagev1.RunBaselineResponse_Summary{Summary: summary}})
}

// job is one call of a baseline: sample Sample (1-based) of a problem.
type job struct {
	problems.Problem
	Sample int
	// batch is the provider batch this request's batches answered it
	// with (prefill), "" when none did.
	batch string
}

// solveAll solves jobs, concurrency at a time (errgroup), and stores
// each result before sending it, one result at a time, so a result is
// never reported unless it is stored.
func (s *Service) solveAll(ctx context.Context, c *llm.Client, solver groundtruth.Solver, pending []job, concurrency int, send func(*triagev1.RunBaselineResponse) error) (*triagev1.BaselineSummary, error) {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(concurrency)
	var (
		mu   sync.Mutex
		left atomic.Bool // a job not started because Stop closed
	)
	sum := &triagev1.BaselineSummary{}
	for _, p := range pending {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			// Checked here, not before g.Go: g.Go waits for a free slot,
			// and Stop may close meanwhile.
			if stopped(s.baseline.Stop) {
				left.Store(true)
				return nil
			}
			a, err := s.baseline.Solver.SolveSample(gctx, c, p.Problem, p.Sample)
			if errors.Is(err, llm.ErrNotSent) {
				left.Store(true) // queued for a slot when Stop closed: not sent
				return nil
			}
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			return s.report(gctx, c, solver, p, a, sum, send)
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if left.Load() {
		return nil, s.baseline.stopError()
	}
	return sum, nil
}

// report stores one attempt, counts it into sum and sends it; an answer a
// provider batch gave is first marked reported in c's cache, so that no
// later call bills it again (llm.Client.MarkReported).
func (s *Service) report(ctx context.Context, c *llm.Client, solver groundtruth.Solver, p job, a solving.Attempt, sum *triagev1.BaselineSummary, send func(*triagev1.RunBaselineResponse) error) error {
	rec := attemptRecord(solver, p.Problem, a)
	if p.Sample >= 2 {
		rec.Sample = p.Sample
	}
	if _, err := s.store.Import(ctx, oneRecord(rec)); err != nil {
		return fmt.Errorf("storing %s/%s sample %d: %w", rec.Dataset, rec.ProblemID, p.Sample, err)
	}
	sum.Solved++
	switch {
	case !a.Gradeable:
		sum.NotGradeable++
		if a.CallFailed {
			sum.FailedCalls++
		}
	case rec.LuckyGuess:
		sum.Gradeable++
		sum.LuckyGuesses++
	case rec.Correct:
		sum.Gradeable++
		sum.Correct++
	default:
		sum.Gradeable++
		if a.Truncated {
			sum.Truncated++
		}
	}
	if a.Response.CacheHit {
		sum.Cached++
	}
	batch := ""
	if a.Response.CacheHit && a.Response.BatchID == p.batch {
		batch = p.batch
	}
	if batch != "" {
		// Marked before it is sent, even as the call ends: an answer is
		// billed at most once — lost if the process dies in between,
		// never billed again by a later call.
		if req, err := solving.Request(p.Problem, 0, p.Sample); err == nil {
			if err := c.MarkReported(context.WithoutCancel(ctx), req); err != nil {
				return err
			}
		}
	}
	item := itemProto(rec, a, sum.Solved, batch)
	item.Sample = int32(p.Sample)
	return send(&triagev1.RunBaselineResponse{Event: &triagev1.RunBaselineResponse_Item{Item: item}})
}

// pendingJobs lists the calls to make: samples 1..k of every problem,
// sample by sample (every ground truth first), but for the stored samples
// the request keeps — each sample judged alone, by the rules of the ground
// truth (groundtruth.StoredSamples.Pending), a stale one never kept — and
// counts the stale ones among them. With k = 1 only the ground truth is
// read.
func (s *Service) pendingJobs(ctx context.Context, solver groundtruth.Solver, probs []problems.Problem, k int, req *triagev1.RunBaselineRequest) (pending []job, stale int, err error) {
	stored := map[groundtruth.Key]groundtruth.StoredSamples{}
	byDataset := map[string][]string{}
	for _, p := range probs {
		byDataset[p.Dataset] = append(byDataset[p.Dataset], p.ID)
	}
	for ds, ids := range byDataset {
		got, err := s.storedSamples(ctx, solver, ds, ids, k)
		if err != nil {
			return nil, 0, err
		}
		for id, rs := range got {
			byIndex := make(groundtruth.StoredSamples, len(rs))
			for _, r := range rs {
				byIndex[r.SampleIndex()] = groundtruth.SampleOf(r)
			}
			stored[groundtruth.Key{Solver: solver, Dataset: ds, ProblemID: id}] = byIndex
		}
	}
	digests := make([]string, len(probs))
	for i, p := range probs {
		digests[i] = problems.Digest(p)
	}
	for j := 1; j <= k; j++ {
		for i, p := range probs {
			samples, digest := stored[groundtruth.Key{Solver: solver, Dataset: p.Dataset, ProblemID: p.ID}], digests[i]
			if !samples.Pending(j, digest, req.GetRerun(), req.GetKeepUngradeable()) {
				continue
			}
			if samples.Stale(j, digest) {
				stale++
			}
			pending = append(pending, job{Problem: p, Sample: j})
		}
	}
	return pending, stale, nil
}

// storedSamples reads what is stored of ids: the ground truth alone when
// k = 1 (as before samples existed), every sample otherwise.
func (s *Service) storedSamples(ctx context.Context, solver groundtruth.Solver, dataset string, ids []string, k int) (map[string][]groundtruth.Record, error) {
	if k > 1 {
		return s.store.GetSamples(ctx, solver, dataset, ids)
	}
	got, err := s.store.Get(ctx, solver, dataset, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[string][]groundtruth.Record, len(got))
	for id, r := range got {
		out[id] = []groundtruth.Record{r}
	}
	return out, nil
}

// validateBaseline checks a request and returns its problems.
func (s *Service) validateBaseline(req *triagev1.RunBaselineRequest) ([]problems.Problem, error) {
	var v apperr.Violations
	validateSolver(&v, "solver", req.GetSolver())
	ep, ok := s.baseline.Endpoints[req.GetEndpoint()]
	switch {
	case req.GetEndpoint() == "":
		v.Add("endpoint", "required; %s", s.endpointNames())
	case !ok:
		v.Add("endpoint", "unknown endpoint %q; %s", req.GetEndpoint(), s.endpointNames())
	case ep.Mode != "" && modeNames[req.GetSolver().GetMode()] != "" && ep.Mode != modeNames[req.GetSolver().GetMode()]:
		v.Add("endpoint", "endpoint %q runs mode %s but the solver's mode is %s", req.GetEndpoint(), ep.Mode, modeNames[req.GetSolver().GetMode()])
	}
	if req.GetBatch() && ok && !ep.Batch {
		v.Add("batch", "endpoint %q does not offer the Batch API; set \"batch\": true in its endpoints entry if its provider does", req.GetEndpoint())
	}
	if c := req.GetConcurrency(); c < 0 || c > MaxBaselineConcurrency {
		v.Add("concurrency", "must be in [0, %d], got %d", MaxBaselineConcurrency, c)
	}
	if k := req.GetSamples(); k < 0 || k > solving.MaxSamples {
		v.Add("samples", "must be in [0, %d] (0 or 1: the ground truth alone), got %d", solving.MaxSamples, k)
	}
	n := len(req.GetProblems())
	switch {
	case n == 0:
		v.Add("problems", "at least one problem is required")
	case n > MaxBaselineProblems:
		v.Add("problems", "at most %d problems, got %d", MaxBaselineProblems, n)
		return nil, v.Err()
	}
	probs := make([]problems.Problem, 0, n)
	seen := map[[2]string]int{}
	for i, p := range req.GetProblems() {
		field := fmt.Sprintf("problems[%d]", i)
		prob, ok := problemFromProto(&v, field, p)
		if !ok {
			continue
		}
		key := [2]string{p.GetDataset(), p.GetId()}
		if first, dup := seen[key]; dup {
			v.Add(field+".id", "duplicate (dataset, id) %s/%s (first at problems[%d])", p.GetDataset(), p.GetId(), first)
			continue
		}
		seen[key] = i
		probs = append(probs, prob)
	}
	return probs, v.Err()
}

// problemFromProto converts and checks one problem.
func problemFromProto(v *apperr.Violations, field string, p *triagev1.Problem) (problems.Problem, bool) {
	before := v.Len()
	if problem := pool.IDProblem(p.GetId()); problem != "" {
		v.Add(field+".id", "%s", problem)
	}
	if p.GetDataset() == "" {
		v.Add(field+".dataset", "must not be empty")
	} else if len(p.GetDataset()) > groundtruth.MaxDatasetBytes {
		v.Add(field+".dataset", "must be at most %d bytes", groundtruth.MaxDatasetBytes)
	}
	if strings.TrimSpace(p.GetText()) == "" {
		v.Add(field+".text", "must not be blank")
	}
	if _, err := grading.ParseSpec(json.RawMessage(p.GetGradingJson())); err != nil {
		v.Add(field+".grading_json", "%v", err)
	}
	if v.Len() > before {
		return problems.Problem{}, false
	}
	return problems.Problem{ID: p.GetId(), Dataset: p.GetDataset(), Text: p.GetText(), Value: 1, Grading: []byte(p.GetGradingJson()), Unsolvable: p.GetUnsolvable()}, true
}

func (s *Service) endpointNames() string { return llm.DescribeNames(s.baseline.Endpoints) }

// attemptRecord is the ground truth an attempt yields.
func attemptRecord(solver groundtruth.Solver, p problems.Problem, a solving.Attempt) groundtruth.Record {
	rec := groundtruth.Record{
		Key:            groundtruth.Key{Solver: solver, Dataset: p.Dataset, ProblemID: p.ID},
		Latency:        a.Response.Latency,
		ResponseSHA256: a.ResponseSHA256(),
		MeasuredAt:     a.MeasuredAt,
		Error:          clip(a.Error, groundtruth.MaxTextBytes),
		FinishReason:   clip(a.Response.FinishReason, groundtruth.MaxTextBytes),
		CostRule:       costrule.None,
		ProblemSHA256:  problems.Digest(p),
	}
	if a.Gradeable {
		rec.Cost, rec.CostRule, rec.Correct, rec.Gradeable = a.Cost(), a.Response.CostRule, a.Correct(), true
		if p.Unsolvable {
			// SPEC §1: an unsolvable item is never solved; a grader that
			// accepted its answer was guessed right, which is kept for audit.
			rec.Correct, rec.LuckyGuess = false, a.Correct()
		}
	}
	return rec
}

// oneRecord yields rec alone, for Store.Import.
func oneRecord(rec groundtruth.Record) func(yield func(groundtruth.Record, error) bool) {
	return func(yield func(groundtruth.Record, error) bool) { yield(rec, nil) }
}

// gradeOutcomes maps grading outcomes to the API's.
var gradeOutcomes = map[string]triagev1.GradeOutcome{
	"correct":       triagev1.GradeOutcome_GRADE_OUTCOME_CORRECT,
	"incorrect":     triagev1.GradeOutcome_GRADE_OUTCOME_INCORRECT,
	"no_answer":     triagev1.GradeOutcome_GRADE_OUTCOME_NO_ANSWER,
	"wrong_answer":  triagev1.GradeOutcome_GRADE_OUTCOME_WRONG_ANSWER,
	"timeout":       triagev1.GradeOutcome_GRADE_OUTCOME_TIMEOUT,
	"runtime_error": triagev1.GradeOutcome_GRADE_OUTCOME_RUNTIME_ERROR,
}

// itemProto reports one stored result.
// batch names the provider batch that answered the call for this very
// request (job.batch), "" otherwise.
func itemProto(rec groundtruth.Record, a solving.Attempt, done int32, batch string) *triagev1.BaselineItem {
	out := triagev1.GradeOutcome_GRADE_OUTCOME_NOT_GRADEABLE
	switch {
	case a.Truncated:
		out = triagev1.GradeOutcome_GRADE_OUTCOME_TRUNCATED
	case a.Gradeable:
		out = gradeOutcomes[string(a.Verdict.Outcome)]
	}
	extracted := clip(a.Verdict.Extracted, maxExtracted)
	var prompt, output int64
	if !a.Response.CacheHit || batch != "" {
		prompt, output = int64(a.Response.PromptTokens), int64(a.Response.Cost)
	}
	return &triagev1.BaselineItem{
		PromptTokens:    prompt,
		OutputTokens:    output,
		BatchId:         batch,
		Record:          recordToProto(rec),
		Outcome:         out,
		ExtractedAnswer: extracted,
		GradeDetail:     clip(a.Verdict.Detail, maxExtracted),
		Cached:          a.Response.CacheHit,
		PromptTemplate:  a.Template.Name,
		PromptSha256:    a.Template.SHA256,
		Done:            done,
		Judge:           judgeProto(a.Judge),
		CallFailed:      a.CallFailed,
	}
}

// clip makes s storable: valid UTF-8 without NUL bytes, at most n bytes.
func clip(s string, n int) string {
	s = strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "")
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}

// judgeProto is the grading judge's call on an answer; nil when none
// answered.
func judgeProto(c *grading.JudgeCall) *triagev1.JudgeCall {
	if c == nil {
		return nil
	}
	return &triagev1.JudgeCall{Endpoint: c.Endpoint, PromptTokens: c.PromptTokens, OutputTokens: c.OutputTokens, Cached: c.Cached}
}
