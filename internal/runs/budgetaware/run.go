package budgetaware

import (
	"context"
	"fmt"
	"sync"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/phase0/solving"
	"github.com/triage-eval/triage/internal/runs/orchestrator"
	"github.com/triage-eval/triage/internal/store/problems"
)

// Deps is what a re-solve needs.
type Deps struct {
	// Config is the run's config; its solvers' endpoints play the solvers.
	Config *orchestrator.Config
	// RunStore holds the plans and receives the results.
	RunStore *orchestrator.RunStore
	// Executor serves the Phase 0 ground truth (baseline correctness).
	Executor triagev1.ExecutorServiceClient
	// Endpoints are the named endpoints; Clients builds their clients.
	Endpoints map[string]llm.Endpoint
	Clients   *llm.Clients
	// Solver prompts and grades.
	Solver *solving.Solver
}

// Run re-solves every selected item not yet stored as gradeable and
// returns the selection. Progress counts items.
func Run(ctx context.Context, d Deps, progress *orchestrator.Progress) (Selection, error) {
	cfg := d.Config
	sel, err := Select(ctx, cfg, d.RunStore, cfg.Baseline.BudgetAwareVariant)
	if err != nil {
		return sel, err
	}
	probs, err := cfg.LoadProblems()
	if err != nil {
		return sel, err
	}
	stored, err := d.RunStore.BudgetAware(ctx)
	if err != nil {
		return sel, err
	}
	type key struct{ model, mode, dataset, id string }
	done := map[key]bool{}
	for _, r := range stored {
		if r.Gradeable {
			done[key{r.Model, r.Mode, r.Dataset, r.ProblemID}] = true
		}
	}
	truth := map[key]map[string]bool{} // by solver and dataset (id ""): id → correct
	var todo []job
	progress.Total.Store(int64(len(sel.Items)))
	for _, it := range sel.Items {
		if done[key{it.Solver.Model, it.Solver.Mode, it.Dataset, it.ProblemID}] {
			progress.Done.Add(1)
			progress.Skipped.Add(1)
			continue
		}
		p, ok := probs[it.Dataset][it.ProblemID]
		if !ok {
			return sel, fmt.Errorf("problem %s/%s, selected by a plan, is in none of the problem files", it.Dataset, it.ProblemID)
		}
		if _, ok := d.Endpoints[it.Solver.Endpoint]; !ok {
			return sel, fmt.Errorf("solver %s/%s: endpoint %q is not in the endpoints file", it.Solver.Model, it.Solver.Mode, it.Solver.Endpoint)
		}
		k := key{it.Solver.Model, it.Solver.Mode, it.Dataset, ""}
		if truth[k] == nil {
			if truth[k], err = baselineCorrect(ctx, d.Executor, it.Solver, it.Dataset); err != nil {
				return sel, err
			}
		}
		todo = append(todo, job{item: it, problem: p, baselineCorrect: truth[k][it.ProblemID]})
	}
	return sel, solveAll(ctx, d, todo, progress)
}

// job is one re-solve with what it needs resolved.
type job struct {
	item            Item
	problem         problems.Problem
	baselineCorrect bool
}

// solveAll re-solves the jobs with the configured concurrency per solver.
func solveAll(ctx context.Context, d Deps, todo []job, progress *orchestrator.Progress) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan job)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
	}
	workers := d.Config.Baseline.Concurrency * len(d.Config.Solvers)
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				ep := j.item.Solver.Endpoint
				c, err := d.Clients.Get("budget-aware/"+ep, d.Endpoints[ep])
				if err != nil {
					fail(err)
					return
				}
				a, err := d.Solver.Solve(ctx, c, j.problem, j.item.Tokens)
				if err != nil {
					fail(err)
					return
				}
				r := result(j.item, a, j.baselineCorrect)
				if err := d.RunStore.SaveBudgetAware(context.WithoutCancel(ctx), r); err != nil {
					fail(err)
					return
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
			}
		})
	}
feed:
	for _, j := range todo {
		select {
		case jobs <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// result is what one re-solve stores.
func result(it Item, a solving.Attempt, baselineCorrect bool) orchestrator.BudgetAwareResult {
	r := orchestrator.BudgetAwareResult{
		Model: it.Solver.Model, Mode: it.Solver.Mode, Dataset: it.Dataset, ProblemID: it.ProblemID, Pool: it.Pool,
		Tokens: it.Tokens, BaselineCorrect: baselineCorrect, Gradeable: a.Gradeable, Correct: a.Correct(),
		Truncated: a.Truncated, OutputTokens: a.Cost(), Outcome: string(a.Verdict.Outcome), Error: a.Error,
	}
	if a.Truncated {
		r.Outcome = "truncated"
	}
	return r
}

// baselineCorrect is a solver's Phase 0 correctness on a dataset.
func baselineCorrect(ctx context.Context, exec triagev1.ExecutorServiceClient, s orchestrator.Solver, dataset string) (map[string]bool, error) {
	recs, err := orchestrator.ListGroundTruth(ctx, exec, s, dataset)
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(recs))
	for id, r := range recs {
		out[id] = r.GetGradeable() && r.GetCorrect()
	}
	return out, nil
}
