package budgetaware

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/phase0/solving"
	"github.com/triage-eval/triage/internal/platform/version"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/runs/work"
	"github.com/triage-eval/triage/internal/store/groundtruth"
	"github.com/triage-eval/triage/internal/store/problems"
	"github.com/triage-eval/triage/internal/store/runstore"
)

// Deps is what a re-solve needs.
type Deps struct {
	// Config is the run's config; its solvers' endpoints play the solvers.
	Config *orchestrator.Config
	// RunStore holds the plans and receives the results.
	RunStore runstore.Store
	// Executor serves the Phase 0 ground truth (baseline correctness).
	Executor triagev1.ExecutorServiceClient
	// Endpoints are the named endpoints; Clients builds their clients.
	Endpoints map[string]llm.Endpoint
	Clients   *llm.Clients
	// Solver prompts and grades.
	Solver *solving.Solver
	// Worker and Lease identify this worker in a run shared by several
	// processes (see orchestrator.Options).
	Worker string
	Lease  time.Duration
	// Spend, when not nil, records what each re-solve costs and enforces
	// the config's spend cap (orchestrator.Ledger).
	Spend *orchestrator.Ledger
	// Version is the stamp stored with every result (SPEC §10); the zero
	// value stores none.
	Version version.Stamp
	// Stop, when it closes, drains the re-solves: those started finish and
	// are stored, no other starts, and Run returns work.ErrStopped. Nil
	// never stops.
	Stop <-chan struct{}
}

// Run re-solves every selected item not yet stored fresh and gradeable —
// new items, items whose inputs changed since (stale, SPEC §5: another
// plan, another allocation, another endpoint setting…) and items whose
// re-solve failed — and returns the selection, with the failed model calls
// in Selection.Failures. Progress counts items. When every model call
// failed, the error is a *orchestrator.CallsFailedError: nothing was
// measured.
func Run(ctx context.Context, d Deps, progress *work.Progress) (Selection, error) {
	sel, todo, selected, err := lay(ctx, d.Config, d.RunStore, d.Endpoints, progress)
	if err != nil {
		return sel, err
	}
	sel.Failures = &orchestrator.CallFailures{}
	type key struct{ model, mode, dataset string }
	truth := map[key]map[string]*triagev1.GroundTruthRecord{} // by solver and dataset
	var stale []string
	for i := range todo {
		j := &todo[i]
		k := key{j.item.Solver.Model, j.item.Solver.Mode, j.item.Dataset}
		if truth[k] == nil {
			if truth[k], err = orchestrator.ListGroundTruth(ctx, d.Executor, j.item.Solver, j.item.Dataset); err != nil {
				return sel, err
			}
		}
		rec := truth[k][j.item.ProblemID]
		if groundtruth.Stale(rec.GetProblemSha256(), problems.Digest(j.problem)) {
			stale = append(stale, fmt.Sprintf("%s/%s %s/%s", j.item.Solver.Model, j.item.Solver.Mode, j.item.Dataset, j.item.ProblemID))
		}
		// An unsolvable problem was never solved (SPEC §1), whatever the
		// record says.
		j.baselineCorrect = rec.GetGradeable() && rec.GetCorrect() && !j.problem.Unsolvable
	}
	if len(stale) > 0 {
		return sel, &StaleGroundTruthError{Items: stale}
	}
	if err := d.RunStore.SaveBudgetAwareGrid(ctx, selected); err != nil {
		return sel, err
	}
	if err := solveAll(ctx, d, todo, progress, sel.Failures); err != nil {
		return sel, err
	}
	_, err = sel.Failures.Outcome(CallsWhat, int(progress.LLMCalls.Load()), "")
	return sel, err
}

// Pending is one re-solve Run would make.
type Pending struct {
	// Item is the selected (solver, problem) and its allocation.
	Item Item
	// Problem is the problem re-solved.
	Problem problems.Problem
}

// PendingResolves returns the selection and the re-solves Run would make
// now (those not stored fresh and gradeable), without making any: the
// quote of a run counts them.
func PendingResolves(ctx context.Context, cfg *orchestrator.Config, rs runstore.Store, endpoints map[string]llm.Endpoint) (Selection, []Pending, error) {
	sel, todo, _, err := lay(ctx, cfg, rs, endpoints, &work.Progress{})
	out := make([]Pending, len(todo))
	for i, j := range todo {
		out[i] = Pending{Item: j.item, Problem: j.problem}
	}
	return sel, out, err
}

// lay selects the items and returns the jobs still to do — new items, items
// whose inputs changed since (stale, SPEC §5) and items whose re-solve
// failed — with every selected item's fingerprint; progress counts the
// items found done.
func lay(ctx context.Context, cfg *orchestrator.Config, rs runstore.Store, endpoints map[string]llm.Endpoint, progress *work.Progress) (Selection, []job, map[runstore.BudgetAwareKey]string, error) {
	sel, err := Select(ctx, cfg, rs, cfg.Baseline.BudgetAwareVariant)
	if err != nil {
		return sel, nil, nil, err
	}
	probs, err := cfg.LoadProblems()
	if err != nil {
		return sel, nil, nil, err
	}
	stored, err := rs.AllBudgetAware(ctx)
	if err != nil {
		return sel, nil, nil, err
	}
	previous := map[runstore.BudgetAwareKey]runstore.BudgetAwareResult{}
	for _, r := range stored {
		previous[runstore.BudgetAwareKey{Model: r.Model, Mode: r.Mode, Dataset: r.Dataset, ProblemID: r.ProblemID}] = r
	}
	var todo []job
	selected := map[runstore.BudgetAwareKey]string{}
	progress.Total.Store(int64(len(sel.Items)))
	for _, it := range sel.Items {
		p, ok := probs[it.Dataset][it.ProblemID]
		if !ok {
			return sel, nil, nil, fmt.Errorf("problem %s/%s, selected by a plan, is in none of the problem files", it.Dataset, it.ProblemID)
		}
		ep, ok := endpoints[it.Solver.Endpoint]
		if !ok {
			return sel, nil, nil, fmt.Errorf("solver %s/%s: endpoint %q is not in the endpoints file", it.Solver.Model, it.Solver.Mode, it.Solver.Endpoint)
		}
		fp := fingerprint(it, p, ep)
		k := runstore.BudgetAwareKey{Model: it.Solver.Model, Mode: it.Solver.Mode, Dataset: it.Dataset, ProblemID: it.ProblemID}
		selected[k] = fp
		prev, stored := previous[k]
		switch {
		case !stored:
		case prev.Fingerprint != fp:
			progress.Stale.Add(1)
		case !prev.Gradeable:
			progress.Retried.Add(1)
		default:
			progress.Done.Add(1)
			progress.Skipped.Add(1)
			continue
		}
		todo = append(todo, job{item: it, problem: p, fingerprint: fp, maxTokens: int64(ep.MaxOutputTokens)})
	}
	return sel, todo, selected, nil
}

// CallsWhat names the re-solves' model calls in CallFailures.Outcome.
const CallsWhat = "model calls of the re-solve"

// callFailed is why a re-solve's model call failed, without the prefix
// the attempt's error repeats.
func callFailed(a solving.Attempt) string {
	return strings.TrimPrefix(a.Error, solving.CallFailedPrefix)
}

// job is one re-solve with what it needs resolved.
type job struct {
	item            Item
	problem         problems.Problem
	fingerprint     string
	maxTokens       int64
	baselineCorrect bool
}

// solveAll re-solves the jobs, Baseline.Concurrency per solver at once,
// sharing them with any other worker of the run (work.Run): each is
// claimed first, and those other workers hold are looked at again after a
// pause until they are stored fresh or taken over.
func solveAll(ctx context.Context, d Deps, todo []job, progress *work.Progress, failures *orchestrator.CallFailures) error {
	store := orchestrator.Units(d.RunStore, func(ctx context.Context) (map[string]string, error) { return freshResolves(ctx, d.RunStore) })
	opts := work.Options{
		Concurrency: d.Config.Baseline.Concurrency * len(d.Config.Solvers),
		Leases:      work.NewLeases(store, d.Worker, d.Lease, time.Now),
		Progress:    progress,
		Stop:        d.Stop,
	}
	return work.Run(ctx, opts, todo, func(ctx context.Context, batch []job) error {
		return solveOne(ctx, d, batch[0], progress, failures)
	})
}

// Fingerprint is the fingerprint of the re-solve's inputs.
func (j job) Fingerprint() string { return j.fingerprint }

// solveOne re-solves one job and stores the result.
func solveOne(ctx context.Context, d Deps, j job, progress *work.Progress, failures *orchestrator.CallFailures) error {
	ep := j.item.Solver.Endpoint
	c, err := d.Clients.Get("budget-aware/"+ep, d.Endpoints[ep])
	if err != nil {
		return err
	}
	var hold, judgeHold *orchestrator.Hold
	if req, rerr := solving.Request(j.problem, j.item.Tokens, 0); rerr == nil {
		// A problem without a call (an ungradeable spec) reserves nothing.
		if hold, err = d.Spend.Reserve(ctx, orchestrator.SpendResolve, ep, j.Key(), req); err != nil {
			return err
		}
		if judgeHold, err = d.Spend.ReserveJudge(ctx, orchestrator.SpendResolve, ep, j.Key(), j.problem, req, false); err != nil {
			return errors.Join(err, d.Spend.Release(ctx, hold))
		}
	}
	a, err := d.Solver.Solve(ctx, c, j.problem, j.item.Tokens)
	// A judge that answered is billed even when the re-solve is not
	// stored (the run stopping).
	judged := d.Spend.SettleJudge(ctx, judgeHold, orchestrator.SpendResolve, j.Key(), a.Judge)
	if err != nil || a.CallFailed {
		if rerr := errors.Join(d.Spend.Release(ctx, hold), judged); err == nil {
			err = rerr
		}
	} else {
		err = errors.Join(d.Spend.Settle(ctx, hold, int64(a.Response.PromptTokens), a.Cost(), a.Response.CacheHit), judged)
	}
	if errors.Is(err, llm.ErrNotSent) {
		// Queued for a slot when the run was asked to stop: not sent, and
		// left for the next run as a re-solve not started.
		return fmt.Errorf("re-solving %s: %w (%w)", j.Key(), work.ErrStopped, err)
	}
	if err != nil {
		return err
	}
	r := result(j, a)
	if d.Version != (version.Stamp{}) {
		r.Version = &d.Version
	}
	if err := d.RunStore.SaveBudgetAware(context.WithoutCancel(ctx), r); err != nil {
		return err
	}
	progress.Done.Add(1)
	progress.LLMCalls.Add(1)
	progress.OutputTokens.Add(r.OutputTokens)
	if a.Response.CacheHit {
		progress.CacheHits.Add(1)
	}
	if !r.Gradeable {
		progress.Errors.Add(1)
	}
	if a.CallFailed {
		failures.Add(callFailed(a))
	}
	return nil
}

// Key is the claim key of a job (a work.Unit).
func (j job) Key() string {
	it := j.item
	return resolveKey(it.Solver.Model, it.Solver.Mode, it.Dataset, it.ProblemID)
}

// resolveKey is the claim key of the re-solve of one problem by one
// solver; freshResolves keys stored re-solves by it too.
func resolveKey(model, mode, dataset, problemID string) string {
	return "budget-aware|" + model + "|" + mode + "|" + dataset + "|" + problemID
}

// freshResolves returns the fingerprint of every stored gradeable
// re-solve by claim key.
func freshResolves(ctx context.Context, rs runstore.Store) (map[string]string, error) {
	all, err := rs.AllBudgetAware(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(all))
	for _, r := range all {
		if r.Gradeable {
			out[resolveKey(r.Model, r.Mode, r.Dataset, r.ProblemID)] = r.Fingerprint
		}
	}
	return out, nil
}

// result is what one re-solve stores.
func result(j job, a solving.Attempt) runstore.BudgetAwareResult {
	it := j.item
	r := runstore.BudgetAwareResult{
		Model: it.Solver.Model, Mode: it.Solver.Mode, Dataset: it.Dataset, ProblemID: it.ProblemID, Pool: it.Pool,
		Tokens: it.Tokens, BaselineCorrect: j.baselineCorrect, Gradeable: a.Gradeable, Correct: a.Correct(),
		Truncated: a.Truncated, OutputTokens: a.Cost(), OutputTokensRule: a.Response.CostRule, Outcome: string(a.Verdict.Outcome), Error: a.Error,
		MaxTokens: j.maxTokens, Fingerprint: j.fingerprint,
	}
	if j.problem.Unsolvable {
		r.Correct, r.LuckyGuess = false, a.Correct()
	}
	if a.Truncated {
		r.Outcome = "truncated"
	}
	return r
}

// StaleGroundTruthError says that selected items' ground truth is stale
// (groundtruth.Stale): their problem changed since Phase 0 measured it, so
// a re-solve of the problem as it is now would be compared with the
// verdict on another one. Nothing was re-solved.
type StaleGroundTruthError struct {
	// Items are the stale items as "model/mode dataset/problem", in
	// selection order.
	Items []string
}

// Error names the first items and what to do.
func (e *StaleGroundTruthError) Error() string {
	named := strings.Join(e.Items[:min(len(e.Items), 3)], ", ")
	if len(e.Items) > 3 {
		named += ", …"
	}
	return fmt.Sprintf("the ground truth of %d selected items (%s) was measured on another text, grading or unsolvable mark than the problem files hold now; run `triage baseline` and `triage run` again first (nothing was re-solved)", len(e.Items), named)
}
