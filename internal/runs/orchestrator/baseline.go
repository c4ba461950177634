package orchestrator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/phase0/solving"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/internal/platform/protoconv"
	"github.com/triage-eval/triage/internal/runs/work"
	"github.com/triage-eval/triage/internal/store/problems"
	"github.com/triage-eval/triage/internal/store/runstore"
)

// BaselineOptions adjusts a Phase 0 run.
type BaselineOptions struct {
	// Rerun re-solves problems whose ground truth is stored as gradeable.
	Rerun bool
	// KeepUngradeable leaves problems stored as not gradeable alone.
	KeepUngradeable bool
	// Log, when not nil, receives one JSON line per solved problem.
	Log io.Writer
	// Now is the clock progress ETAs and leases use; nil means time.Now.
	Now func() time.Time
	// Store, when not nil, is the run store through which several
	// processes share the baseline: each problem is claimed there before
	// it is sent (see runstore.Store.ClaimKeys), so that no two workers solve it.
	Store runstore.Store
	// Worker and Lease identify this worker and its lease (see Options).
	Worker string
	Lease  time.Duration
	// Spend, when not nil, records what each call costs and enforces the
	// config's spend cap: each problem's call is reserved before its batch
	// is sent (with a cap, batches hold Baseline.Concurrency problems and
	// problems whose ground truth is kept are left out first, so that
	// reservations are the calls under way).
	Spend *Ledger
	// Stop, when it closes, drains the baseline: no chunk of problems is
	// sent after it and the calls sent finish (work.Options.Stop); an
	// Executor of this process stops within its chunk too
	// (executor.Baseline.Stop). Nil never stops.
	Stop <-chan struct{}
}

// BaselineSummary is one solver's Phase 0 outcome.
type BaselineSummary struct {
	// Solver is the solver run.
	Solver Solver
	// Total, Skipped are the calls asked for (problems sent × samples) and
	// those skipped because their sample is already stored; Stale counts
	// the calls made again because their stored sample is stale (measured
	// on another text, grading or unsolvable mark: groundtruth.Stale).
	Total, Skipped, Stale int
	// Samples is k, the samples asked per problem (baseline.samples).
	Samples int
	// Summary counts what this call solved.
	Summary *triagev1.BaselineSummary
	// Failures are the model calls that failed, by reason.
	Failures *CallFailures
	// Ungradeable are the calls this call stored as not gradeable, by
	// the reason stored with them (a failed model call's included): what
	// the summary says of Summary.NotGradeable.
	Ungradeable *CallFailures
	// Batches are the provider's batch ids of a batch Phase 0
	// (Baseline.Batch), and BatchWarnings what they left to synchronous
	// calls, one line per RunBaseline call that left any.
	Batches       []string
	BatchWarnings []string
}

// Outcome judges the solver's model calls (CallFailures.Outcome): a
// *CallsFailedError when every call failed, a warning when some did; and
// a *NothingGradeableError when the calls did not all fail but none was
// gradeable, and none was stored before: nothing was measured.
func (s BaselineSummary) Outcome(retry string) (warning string, err error) {
	what := fmt.Sprintf("model calls of %s/%s", s.Solver.Model, s.Solver.Mode)
	warning, err = s.Failures.Outcome(what, int(s.Summary.GetSolved()), retry)
	if err == nil && s.Summary.GetSolved() > 0 && s.Summary.GetGradeable() == 0 && s.Skipped == 0 {
		return "", &NothingGradeableError{Solver: s.Solver, Solved: int(s.Summary.GetSolved()), Reasons: s.Ungradeable.Reasons()}
	}
	return warning, err
}

// NothingGradeableError says that a solver's baseline stored every problem
// it solved as not gradeable, with none stored before: the solver has no
// ground truth, and no run can use it.
type NothingGradeableError struct {
	// Solver is the solver.
	Solver Solver
	// Solved is how many calls were made and stored.
	Solved int
	// Reasons is why they are not gradeable (CallFailures.Reasons).
	Reasons string
}

// Error says how many problems were solved, none gradeable, and why.
func (e *NothingGradeableError) Error() string {
	return fmt.Sprintf("none of the %d problems of %s/%s solved is gradeable: %s", e.Solved, e.Solver.Model, e.Solver.Mode, e.Reasons)
}

// logLine is one line of the baseline log.
type logLine struct {
	Model           string `json:"model"`
	Mode            string `json:"mode"`
	Dataset         string `json:"dataset"`
	ID              string `json:"id"`
	Sample          int    `json:"sample"`
	Outcome         string `json:"outcome"`
	Correct         bool   `json:"correct"`
	LuckyGuess      bool   `json:"lucky_guess,omitempty"`
	Gradeable       bool   `json:"gradeable"`
	Cost            int64  `json:"cost"`
	CostRule        string `json:"cost_rule"`
	FinishReason    string `json:"finish_reason,omitempty"`
	Error           string `json:"error,omitempty"`
	ExtractedAnswer string `json:"extracted_answer,omitempty"`
	GradeDetail     string `json:"grade_detail,omitempty"`
	Cached          bool   `json:"cached,omitempty"`
	Prompt          string `json:"prompt"`
	PromptSHA256    string `json:"prompt_sha256"`
}

// RunBaseline runs Phase 0 for every solver of cfg on every problem of its
// selected datasets through the Executor, solvers in parallel, and returns
// one summary per solver in config order. With baseline.samples k > 1 each
// problem is solved k times (SPEC §9); samples already stored are skipped,
// so raising k makes only the missing ones. Progress counts calls
// (problems × samples).
//
// Before any work a preflight checks that the Executor answers and that
// every solver's endpoint exists, plays the solver's mode and answers a
// check call (one small call each), and returns a *PreflightError listing
// every problem found. When a solver fails, the others stop and the error
// is that solver's, not the cancellation it caused; when the caller's
// context ends, the error is its cause; when it drained (opts.Stop), it is
// work.ErrStopped. Each of these is joined with the *SpendCapError of every
// solver the cap stopped before, as is no error. When every model call of a solver
// failed, the error is a *CallsFailedError, and when none of a solver's
// problems is gradeable otherwise, a *NothingGradeableError (joined, one
// per such solver): nothing was measured.
func RunBaseline(ctx context.Context, cfg *Config, exec triagev1.ExecutorServiceClient, opts BaselineOptions, progress *work.Progress) ([]BaselineSummary, error) {
	var missing []error
	for i, s := range cfg.Solvers {
		if s.Endpoint == "" {
			missing = append(missing, fmt.Errorf("solvers[%d].endpoint: required to run the baseline of %s/%s", i, s.Model, s.Mode))
		}
	}
	if err := errors.Join(missing...); err != nil {
		return nil, err
	}
	list, err := baselineList(cfg)
	if err != nil {
		return nil, err
	}
	if problems := checkBaseline(ctx, cfg, exec); len(problems) > 0 {
		return nil, &PreflightError{Command: "baseline", Problems: problems}
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	progress.Start(now())
	progress.Total.Store(int64(len(list) * len(cfg.Solvers) * max(cfg.Baseline.Samples, 1)))
	out := make([]BaselineSummary, len(cfg.Solvers))
	var logMu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	capped := make([]error, len(cfg.Solvers))
	var drained atomic.Bool
	for i, s := range cfg.Solvers {
		g.Go(func() error {
			var err error
			if out[i], err = baselineOne(gctx, cfg, exec, s, list, opts, progress, &logMu); err != nil {
				if drainedBy(opts.Stop, gctx, err) {
					// This solver drained; the others finish their calls
					// in flight too instead of being cut off by it.
					drained.Store(true)
					return nil
				}
				err = fmt.Errorf("baseline of %s/%s: %w", s.Model, s.Mode, err)
				if _, ok := errors.AsType[*SpendCapError](err); ok {
					// The cap stops this solver before its next call; the
					// others go on to theirs (their calls under way are
					// received and billed, not cut off).
					capped[i] = err
					return nil
				}
				// The first error stays: the others' are the cancellation
				// this one caused.
				return err
			}
			return nil
		})
	}
	err = g.Wait()
	// However the baseline ends, a solver the cap stopped says so too: the
	// same command would meet the cap again.
	withCapped := func(err error) error { return errors.Join(append([]error{err}, capped...)...) }
	if ctx.Err() != nil {
		return out, withCapped(context.Cause(ctx))
	}
	if err != nil {
		return out, withCapped(err)
	}
	if drained.Load() {
		return out, withCapped(work.ErrStopped)
	}
	if err := errors.Join(capped...); err != nil {
		return out, err
	}
	var failed []error
	for _, s := range out {
		if _, err := s.Outcome(""); err != nil {
			failed = append(failed, err)
		}
	}
	return out, errors.Join(failed...)
}

// baselineList is every problem Phase 0 solves, by dataset then id.
func baselineList(cfg *Config) ([]*triagev1.Problem, error) {
	probs, err := cfg.LoadProblems()
	if err != nil {
		return nil, err
	}
	var list []*triagev1.Problem
	for _, d := range cfg.BaselineDatasets(probs) {
		ids := make([]string, 0, len(probs[d]))
		for id := range probs[d] {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for _, id := range ids {
			list = append(list, problemProto(probs[d][id]))
		}
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("datasets: no problems in the selected datasets %v", cfg.Datasets)
	}
	return list, nil
}

// maxBatchBytes bounds the encoded problems of one RunBaseline call, well
// under the servers' default 16 MiB message limit: LiveCodeBench problems
// with private tests can be megabytes each.
const maxBatchBytes = 8 << 20

// batches splits list into runs whose encoded size stays under
// maxBatchBytes (a larger problem goes alone) and whose calls (problems ×
// samples) stay under maxBatchCalls.
func batches(list []*triagev1.Problem, samples int) [][]*triagev1.Problem {
	perBatch := max(maxBatchCalls/max(samples, 1), 1)
	var out [][]*triagev1.Problem
	start, size := 0, 0
	for i, p := range list {
		n := proto.Size(p) + 8
		if i > start && (size+n > maxBatchBytes || i-start >= perBatch) {
			out = append(out, list[start:i])
			start, size = i, 0
		}
		size += n
	}
	if start < len(list) {
		out = append(out, list[start:])
	}
	return out
}

// maxBatchCalls bounds the model calls of one RunBaseline call (problems ×
// samples; the problems stay below the Executor's limit of 10,000): at a
// minute per call and concurrency 4 a batch takes about 4 h, well within a
// server's default deadline for long calls (24 h), and a batch cut short
// loses nothing stored.
const maxBatchCalls = 1000

// baselineUnit is one problem of one solver's baseline: a work.Unit
// claimed by key; the Executor knows which are stored (it skips them), so
// the unit has no fingerprint.
type baselineUnit struct {
	solver  Solver
	problem *triagev1.Problem
}

// Key is the claim key of one baseline problem.
func (u baselineUnit) Key() string {
	return "baseline|" + u.solver.Model + "|" + u.solver.Mode + "|" + u.problem.GetDataset() + "|" + u.problem.GetId()
}

// Fingerprint is empty: the Executor judges what is stored.
func (baselineUnit) Fingerprint() string { return "" }

// baselineOne runs one solver's baseline, batch after batch, and adds up
// the summaries. With a shared store, each batch holds only the problems
// this worker claimed, a chunk at a time (work.Run with a batch hook);
// problems other workers hold are sent again once released (the Executor
// skips those stored meanwhile, so no model is asked twice), until every
// problem went through this worker or was stored.
func baselineOne(ctx context.Context, cfg *Config, exec triagev1.ExecutorServiceClient, s Solver, list []*triagev1.Problem, opts BaselineOptions, progress *work.Progress, logMu *sync.Mutex) (BaselineSummary, error) {
	sum := BaselineSummary{Solver: s, Samples: max(cfg.Baseline.Samples, 1), Summary: &triagev1.BaselineSummary{}, Failures: &CallFailures{}, Ungradeable: &CallFailures{}}
	units := make([]baselineUnit, len(list))
	for i, p := range list {
		units[i] = baselineUnit{s, p}
	}
	wo := work.Options{Batch: len(list), Stop: opts.Stop}
	if opts.Store != nil {
		now := opts.Now
		if now == nil {
			now = time.Now
		}
		chunk := max(4*cfg.Baseline.Concurrency, 16)
		if cfg.Baseline.Batch {
			// A provider batch per claimed chunk: small chunks would make
			// many small batches, each waited for in turn.
			chunk = max(maxBatchCalls/max(cfg.Baseline.Samples, 1), 1)
		}
		wo = work.Options{Batch: chunk, Leases: work.NewLeases(Units(opts.Store, nil), opts.Worker, opts.Lease, now), Stop: opts.Stop}
	}
	var pending map[string]bool // with a cap: the calls to reserve, by holdKey
	if opts.Spend.Capped() {
		// Reserve what the Executor will call, no more: the samples it keeps
		// (groundtruth.StoredSamples.Pending) hold no budget, and problems
		// with none to make are not sent.
		k := max(cfg.Baseline.Samples, 1)
		calls, _, err := pendingSamples(ctx, exec, s, list, k, opts)
		if err != nil {
			return sum, err
		}
		pending = make(map[string]bool, len(calls))
		sent := map[*triagev1.Problem]bool{}
		for _, c := range calls {
			pending[holdKey(c.problem.GetDataset(), c.problem.GetId(), c.sample)] = true
			sent[c.problem] = true
		}
		units = units[:0]
		for _, p := range list {
			if sent[p] {
				units = append(units, baselineUnit{s, p})
			}
		}
		kept := (len(list) - len(units)) * k
		sum.Total += kept
		sum.Skipped += kept
		progress.Done.Add(int64(kept))
		progress.Skipped.Add(int64(kept))
	}
	if opts.Spend.Capped() && !cfg.Baseline.Batch {
		// Reservations of calls not yet sent hold budget: claim what is
		// sent at once. A batch run keeps its chunk, one provider batch,
		// reserved whole (reserveBatch cuts it at the cap).
		wo.Batch = max(cfg.Baseline.Concurrency/max(cfg.Baseline.Samples, 1), 1)
	}
	err := work.Run(ctx, wo, units, func(ctx context.Context, mine []baselineUnit) error {
		probs := make([]*triagev1.Problem, len(mine))
		for i, u := range mine {
			probs[i] = u.problem
		}
		for _, batch := range batches(probs, cfg.Baseline.Samples) {
			if work.Stopping(opts.Stop) {
				return work.ErrStopped // no RunBaseline starts after Stop
			}
			if err := sendBaselineBatch(ctx, cfg, exec, s, batch, pending, opts, progress, logMu, &sum); err != nil {
				return err
			}
		}
		return nil
	})
	return sum, err
}

// Sending a batch again to an Executor replica after the one answering it
// shut down (sendBaselineBatch).
const (
	maxBatchResends = 10
	resendPause     = time.Second
)

// sendBaselineBatch runs one batch (baselineBatch) and, while the Executor
// answering it shuts down (a rolling update: Unavailable with a RetryInfo,
// once the calls it made are stored — executor.Baseline.StopError), sends
// it again: another replica, or the same one once back, skips what is
// stored and solves the rest. Other errors, and the last resend's, are
// returned.
func sendBaselineBatch(ctx context.Context, cfg *Config, exec triagev1.ExecutorServiceClient, s Solver, batch []*triagev1.Problem, pending map[string]bool, opts BaselineOptions, progress *work.Progress, logMu *sync.Mutex, sum *BaselineSummary) error {
	for resend := 0; ; resend++ {
		err := baselineBatch(ctx, cfg, exec, s, batch, pending, opts, progress, logMu, sum, resend > 0)
		if _, leaving := grpcerr.RetryDelay(err); err == nil || status.Code(err) != codes.Unavailable || !leaving || resend == maxBatchResends || work.Stopping(opts.Stop) {
			return err
		}
		t := time.NewTimer(resendPause) // the leaving replica's address goes meanwhile
		select {
		case <-ctx.Done():
			t.Stop()
			return context.Cause(ctx)
		case <-t.C:
		}
	}
}

// baselineBatch runs one RunBaseline call and consumes its stream into sum;
// with a spend cap, it first reserves the calls of pending (reserveBatch).
// resent says the batch was sent before: what its Started event counts was
// counted then (the problems stored since are the ones its items reported).
func baselineBatch(ctx context.Context, cfg *Config, exec triagev1.ExecutorServiceClient, s Solver, batch []*triagev1.Problem, pending map[string]bool, opts BaselineOptions, progress *work.Progress, logMu *sync.Mutex, sum *BaselineSummary, resent bool) (err error) {
	batch, holds, err := reserveBatch(ctx, s, batch, max(cfg.Baseline.Samples, 1), cfg.Baseline.Batch, pending, opts.Spend)
	var capErr *SpendCapError
	if errors.As(err, &capErr) {
		err = nil
	}
	defer func() {
		// Problems the Executor skipped (stored meanwhile) or never reached.
		for _, h := range holds {
			if rerr := opts.Spend.Release(ctx, h); err == nil {
				err = rerr
			}
		}
		if err == nil && capErr != nil {
			err = capErr
		}
	}()
	if err != nil || len(batch) == 0 {
		return err
	}
	stream, err := exec.RunBaseline(ctx, &triagev1.RunBaselineRequest{
		Solver: solverProto(s), Endpoint: s.Endpoint, Problems: batch,
		Concurrency: int32(cfg.Baseline.Concurrency), Rerun: opts.Rerun, KeepUngradeable: opts.KeepUngradeable,
		Samples: int32(cfg.Baseline.Samples), Batch: cfg.Baseline.Batch,
	})
	if err != nil {
		return err
	}
	for {
		msg, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return errors.New("the executor ended the stream without a summary")
		}
		if err != nil {
			return err
		}
		switch ev := msg.GetEvent().(type) {
		case *triagev1.RunBaselineResponse_Started:
			if resent {
				continue
			}
			sum.Total += int(ev.Started.GetTotal())
			sum.Skipped += int(ev.Started.GetSkipped())
			sum.Stale += int(ev.Started.GetStale())
			progress.Stale.Add(int64(ev.Started.GetStale()))
			progress.Done.Add(int64(ev.Started.GetSkipped()))
			progress.Skipped.Add(int64(ev.Started.GetSkipped()))
		case *triagev1.RunBaselineResponse_Batch:
			sum.Batches = append(sum.Batches, ev.Batch.GetBatchIds()...)
			if w := ev.Batch.GetWarning(); w != "" {
				sum.BatchWarnings = append(sum.BatchWarnings, w)
			}
		case *triagev1.RunBaselineResponse_Item:
			it := ev.Item
			progress.Done.Add(1)
			progress.LLMCalls.Add(1)
			if it.GetCached() {
				progress.CacheHits.Add(1)
			}
			progress.OutputTokens.Add(it.GetRecord().GetCost())
			if !it.GetRecord().GetGradeable() {
				progress.Errors.Add(1)
				sum.Ungradeable.Add(it.GetRecord().GetError())
			}
			if it.GetCallFailed() {
				// The record's error repeats what the tally's sentence says.
				sum.Failures.Add(strings.TrimPrefix(it.GetRecord().GetError(), solving.CallFailedPrefix))
			}
			k := holdKey(it.GetRecord().GetDataset(), it.GetRecord().GetProblemId(), int(it.GetSample()))
			if h := holds[k]; h != nil {
				delete(holds, k)
				switch {
				case it.GetCallFailed():
					err = opts.Spend.Release(ctx, h)
				case it.GetBatchId() != "":
					err = opts.Spend.SettleBatched(ctx, h, it.GetPromptTokens(), it.GetOutputTokens())
				default:
					err = opts.Spend.Settle(ctx, h, it.GetPromptTokens(), it.GetOutputTokens(), it.GetCached())
				}
				if err != nil {
					return err
				}
			}
			jh := holds[judgeHoldKey(k)]
			delete(holds, judgeHoldKey(k))
			unit := baselineUnit{s, &triagev1.Problem{Dataset: it.GetRecord().GetDataset(), Id: it.GetRecord().GetProblemId()}}.Key()
			if err := opts.Spend.SettleJudge(ctx, jh, SpendBaseline, unit, judgeCallOf(it.GetJudge())); err != nil {
				return err
			}
			if opts.Log != nil {
				if err := writeLogLine(opts.Log, logMu, s, it); err != nil {
					return fmt.Errorf("baseline log: %w", err)
				}
			}
		case *triagev1.RunBaselineResponse_Summary:
			m, b := sum.Summary, ev.Summary
			m.Solved += b.GetSolved()
			m.Gradeable += b.GetGradeable()
			m.Correct += b.GetCorrect()
			m.Truncated += b.GetTruncated()
			m.NotGradeable += b.GetNotGradeable()
			m.Cached += b.GetCached()
			m.LuckyGuesses += b.GetLuckyGuesses()
			m.FailedCalls += b.GetFailedCalls()
			return nil
		}
	}
}

// reserveBatch reserves with ledger, in order, the k calls of each problem
// of batch (its samples), or those of pending when it is not nil; with
// batched, for as long as a provider batch may be waited for. It returns
// the problems reserved (those that make no call too) and their holds by
// holdKey, with the grading judge's by judgeHoldKey. When the cap cut the
// batch short, the error is the *SpendCapError, returned with the problems
// whose every call was reserved before.
func reserveBatch(ctx context.Context, s Solver, batch []*triagev1.Problem, k int, batched bool, pending map[string]bool, ledger *Ledger) ([]*triagev1.Problem, map[string]*Hold, error) {
	if ledger == nil {
		return batch, nil, nil
	}
	reserve := ledger.Reserve
	if batched {
		reserve = ledger.ReserveBatched
	}
	holds := map[string]*Hold{}
	for i, p := range batch {
		for j := 1; j <= k; j++ {
			if pending != nil && !pending[holdKey(p.GetDataset(), p.GetId(), j)] {
				continue // kept: the Executor makes no call for it
			}
			req, err := solving.Request(problemOf(p), 0, j)
			if err != nil {
				break // no call: the problem is stored not gradeable
			}
			key := holdKey(p.GetDataset(), p.GetId(), j)
			h, err := reserve(ctx, SpendBaseline, s.Endpoint, baselineUnit{s, p}.Key(), req)
			if err == nil {
				holds[key] = h
				var jh *Hold
				if jh, err = ledger.ReserveJudge(ctx, SpendBaseline, s.Endpoint, baselineUnit{s, p}.Key(), problemOf(p), req, batched); jh != nil {
					holds[judgeHoldKey(key)] = jh
				}
			}
			if err != nil {
				for j2 := 1; j2 <= j; j2++ { // this problem goes unsent
					key := holdKey(p.GetDataset(), p.GetId(), j2)
					for _, key := range []string{key, judgeHoldKey(key)} {
						if rerr := ledger.Release(ctx, holds[key]); rerr != nil {
							return nil, holds, rerr
						}
						delete(holds, key)
					}
				}
				return batch[:i], holds, err
			}
		}
	}
	return batch, holds, nil
}

// holdKey names the reservation of sample j (0 or 1: the ground truth) of
// a problem.
func holdKey(dataset, id string, j int) string {
	return fmt.Sprintf("%s|%s|%d", dataset, id, max(j, 1))
}

// judgeHoldKey names the reservation of the grading judge's call on the
// answer whose own reservation is key.
func judgeHoldKey(key string) string { return "judge|" + key }

// judgeCallOf is what the Executor reported of a grading judge's call;
// nil when none answered.
func judgeCallOf(c *triagev1.JudgeCall) *grading.JudgeCall {
	if c == nil {
		return nil
	}
	return &grading.JudgeCall{Endpoint: c.GetEndpoint(), PromptTokens: c.GetPromptTokens(), OutputTokens: c.GetOutputTokens(), Cached: c.GetCached()}
}

func writeLogLine(w io.Writer, mu *sync.Mutex, s Solver, it *triagev1.BaselineItem) error {
	r := it.GetRecord()
	line, err := json.Marshal(logLine{
		Model: s.Model, Mode: s.Mode, Dataset: r.GetDataset(), ID: r.GetProblemId(), Sample: max(int(it.GetSample()), 1),
		Outcome: outcomeName(it.GetOutcome()), Correct: r.GetCorrect(), LuckyGuess: r.GetLuckyGuess(), Gradeable: r.GetGradeable(), Cost: r.GetCost(),
		CostRule:     string(protoconv.CostRuleFromProto(r.GetCostRule())),
		FinishReason: r.GetFinishReason(), Error: r.GetError(), ExtractedAnswer: it.GetExtractedAnswer(),
		GradeDetail: it.GetGradeDetail(), Cached: it.GetCached(), Prompt: it.GetPromptTemplate(), PromptSHA256: it.GetPromptSha256(),
	})
	if err != nil {
		return err
	}
	mu.Lock()
	defer mu.Unlock()
	_, err = w.Write(append(line, '\n'))
	return err
}

// outcomeName is the lower-case outcome, e.g. "wrong_answer".
func outcomeName(o triagev1.GradeOutcome) string {
	return strings.ToLower(strings.TrimPrefix(o.String(), "GRADE_OUTCOME_"))
}

// problemOf is the canonical problem of p (problemProto's inverse).
func problemOf(p *triagev1.Problem) problems.Problem {
	return problems.Problem{ID: p.GetId(), Dataset: p.GetDataset(), Text: p.GetText(), Grading: json.RawMessage(p.GetGradingJson()), Unsolvable: p.GetUnsolvable()}
}

// problemProto converts a canonical problem for the Executor.
func problemProto(p problems.Problem) *triagev1.Problem {
	return &triagev1.Problem{Id: p.ID, Dataset: p.Dataset, Text: p.Text, GradingJson: string(p.Grading), Unsolvable: p.Unsolvable}
}

// drainedBy reports whether err ended a solver's baseline because stop
// closed (BaselineOptions.Stop) while ctx lives (StopOutcome).
func drainedBy(stop <-chan struct{}, ctx context.Context, err error) bool {
	return work.Stopping(stop) && ctx.Err() == nil && StopOutcome(err)
}

// StopOutcome reports whether err is how work ends when it is stopped
// rather than failing: work.Run's ErrStopped, a cancelled context, or the
// Canceled status of a call it cancelled or of an in-process Executor that
// drained (executor.Baseline.StopError's default).
func StopOutcome(err error) bool {
	return errors.Is(err, work.ErrStopped) || status.Code(err) == codes.Canceled || errors.Is(err, context.Canceled)
}
