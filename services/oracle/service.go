package oracle

import (
	"context"
	"errors"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/platform/protoconv"
	"github.com/triage-eval/triage/internal/protocol/knapsack"
	"github.com/triage-eval/triage/internal/protocol/pool"
	"github.com/triage-eval/triage/internal/protocol/randomref"
)

// Service implements triagev1.OracleServiceServer. Its only state is the
// Monte Carlo order cache, which never changes a result.
type Service struct {
	triagev1.UnimplementedOracleServiceServer
	sampler *randomref.Sampler
}

// OrderCacheEntries is how many (pool size, samples, seed) order sets the
// service keeps for Monte Carlo (each at most 8 MiB; 60 KiB for the paper's
// 30-item pools and 1000 samples).
const OrderCacheEntries = 8

// NewService returns an Oracle service.
func NewService() *Service {
	return &Service{sampler: randomref.NewSampler(OrderCacheEntries)}
}

// ComputeReferences returns the oracle and random reference at each budget
// and, when the request carries a population, the partial-information
// reference plans (package partialref).
// The server runner calls ValidateRequest first; a caller that registers the
// service elsewhere must do the same to get field-level errors (unvalidated
// bad input still fails, with a plain error, and never panics).
func (s *Service) ComputeReferences(ctx context.Context, req *triagev1.ComputeReferencesRequest) (*triagev1.ComputeReferencesResponse, error) {
	items := protoconv.PoolItems(req.GetItems())
	total := pool.TotalCost(items)
	budgets := make([]int64, len(req.GetBudgets()))
	refs := make([]*triagev1.BudgetReferences, len(budgets))
	for i, b := range req.GetBudgets() {
		tokens, alpha, err := protoconv.Tokens(b, total)
		if err != nil {
			return nil, err
		}
		budgets[i] = tokens
		refs[i] = &triagev1.BudgetReferences{Budget: tokens, Alpha: alpha}
	}
	states := knapsack.NewStateBudget(MaxKnapsackStates)
	for i, b := range budgets {
		sol, err := knapsack.SolveWithin(ctx, items, b, states)
		var tooHard *knapsack.StateLimitError
		if errors.As(err, &tooHard) {
			return nil, apperr.Invalid("items", "the exact oracle for these values needs more than %d Pareto states over the request's budgets (reached at budgets[%d]); "+
				"values that vary less with cost, fewer items or fewer budgets per request stay within it (unit values never need the search)", tooHard.Limit, i)
		}
		if err != nil {
			return nil, err
		}
		refs[i].Oracle = oracleReference(items, sol)
	}
	random, err := s.randomReferences(ctx, items, budgets, req.GetRandom())
	if err != nil {
		return nil, err
	}
	for i := range refs {
		refs[i].Random = random[i]
	}
	resp := &triagev1.ComputeReferencesResponse{
		References: refs,
		TotalCost:  total,
		TotalValue: pool.TotalGain(items),
	}
	if pop := req.GetPopulation(); pop != nil {
		if resp.NoPopulation, err = partialReferences(items, pop, budgets, refs); err != nil {
			return nil, err
		}
	}
	return resp, nil
}

func oracleReference(items []pool.Item, sol knapsack.Solution) *triagev1.OracleReference {
	plan := make([]*triagev1.PlanStep, len(sol.Chosen))
	for i, idx := range sol.Chosen {
		plan[i] = &triagev1.PlanStep{Id: items[idx].ID, Tokens: items[idx].Cost}
	}
	return &triagev1.OracleReference{Value: sol.Value, Plan: plan, Cost: sol.Cost}
}

func (s *Service) randomReferences(ctx context.Context, items []pool.Item, budgets []int64, opts *triagev1.RandomReferenceOptions) ([]*triagev1.RandomReference, error) {
	method := opts.GetMethod()
	var (
		est []randomref.Estimate
		err error
	)
	if method == triagev1.RandomMethod_RANDOM_METHOD_EXACT {
		est, err = randomref.Exact(ctx, items, budgets)
	} else {
		method = triagev1.RandomMethod_RANDOM_METHOD_MONTE_CARLO
		est, err = s.sampler.MonteCarlo(ctx, items, budgets, samplesOf(opts), opts.GetSeed())
	}
	if err != nil {
		return nil, err
	}
	out := make([]*triagev1.RandomReference, len(est))
	for i, e := range est {
		out[i] = &triagev1.RandomReference{
			Mean:          e.Mean,
			StandardError: e.StdErr,
			Samples:       int32(e.Samples),
			Method:        method,
			Seed:          opts.GetSeed(),
		}
	}
	return out, nil
}
