package budgetaware

import (
	"context"
	"fmt"
	"sync"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/orchestrator"
	"github.com/triage-eval/triage/internal/problems"
	"github.com/triage-eval/triage/internal/solving"
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
	done := map[string]bool{}
	for _, r := range stored {
		if r.Gradeable {
			done[r.Model+"\x00"+r.Mode+"\x00"+r.Dataset+"\x00"+r.ProblemID] = true
		}
	}
	truth := map[string]map[string]bool{} // solver/dataset → id → correct
	var todo []Item
	progress.Total.Store(int64(len(sel.Items)))
	for _, it := range sel.Items {
		if done[it.Solver.Model+"\x00"+it.Solver.Mode+"\x00"+it.Dataset+"\x00"+it.ProblemID] {
			progress.Done.Add(1)
			progress.Skipped.Add(1)
			continue
		}
		if _, ok := probs[it.Dataset][it.ProblemID]; !ok {
			return sel, fmt.Errorf("problem %s/%s, selected by a plan, is in none of the problem files", it.Dataset, it.ProblemID)
		}
		if _, ok := d.Endpoints[it.Solver.Endpoint]; !ok {
			return sel, fmt.Errorf("solver %s/%s: endpoint %q is not in the endpoints file", it.Solver.Model, it.Solver.Mode, it.Solver.Endpoint)
		}
		k := it.Solver.Model + "\x00" + it.Solver.Mode + "\x00" + it.Dataset
		if truth[k] == nil {
			if truth[k], err = baselineCorrect(ctx, d.Executor, it.Solver, it.Dataset); err != nil {
				return sel, err
			}
		}
		todo = append(todo, it)
	}
	return sel, solveAll(ctx, d, todo, probs, truth, progress)
}

// solveAll re-solves items with the configured concurrency per solver.
func solveAll(ctx context.Context, d Deps, todo []Item, probs map[string]map[string]problems.Problem, truth map[string]map[string]bool, progress *orchestrator.Progress) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan Item)
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
			for it := range jobs {
				c, err := d.Clients.Get("budget-aware/"+it.Solver.Endpoint, d.Endpoints[it.Solver.Endpoint])
				if err != nil {
					fail(err)
					return
				}
				a, err := d.Solver.Solve(ctx, c, probs[it.Dataset][it.ProblemID], it.Tokens)
				if err != nil {
					fail(err)
					return
				}
				r := result(it, a, truth[it.Solver.Model+"\x00"+it.Solver.Mode+"\x00"+it.Dataset][it.ProblemID])
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
	for _, it := range todo {
		select {
		case jobs <- it:
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
