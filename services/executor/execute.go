package executor

import (
	"context"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/platform/protoconv"
	"github.com/triage-eval/triage/internal/protocol/execution"
	"github.com/triage-eval/triage/internal/protocol/pool"
	"github.com/triage-eval/triage/internal/store/groundtruth"
)

// ExecutePlan normalizes the plan against the pool and executes it under the
// requested regimes (both when none is named).
func (s *Service) ExecutePlan(ctx context.Context, req *triagev1.ExecutePlanRequest) (*triagev1.ExecutePlanResponse, error) {
	items, ungradeable, err := s.poolItems(ctx, req)
	if err != nil {
		return nil, err
	}
	p, err := execution.AdoptPool(items) // items are this call's own, read only from here on
	if err != nil {
		return nil, err
	}
	total := pool.TotalCost(items)
	budget, err := protoconv.BudgetTokens(req.GetBudget(), total)
	if err != nil {
		return nil, err
	}
	plan := execution.Normalize(p, protoconv.Steps(req.GetPlan()))

	resp := &triagev1.ExecutePlanResponse{
		Budget:                budget,
		PlannedTokens:         plan.PlannedTokens,
		OverBudget:            plan.OverBudget(budget),
		UngradeableProblemIds: ungradeable,
		PoolSize:              int32(len(items)),
		TotalCost:             total,
		NormalizedPlan:        normalizedPlan(req.GetPlan(), plan),
		DroppedSteps:          protoconv.PlanDrops(plan.Log),
	}
	if req.GetIncludePoolItems() {
		resp.PoolItems = protoconv.GroundTruthItems(items)
	}
	regimes := req.GetRegimes()
	if len(regimes) == 0 {
		regimes = []triagev1.Regime{triagev1.Regime_REGIME_ADVISORY, triagev1.Regime_REGIME_ENFORCED}
	}
	resp.Results = make([]*triagev1.RegimeResult, len(regimes))
	for i, r := range regimes {
		resp.Results[i] = regimeResult(r, run(p, plan, budget, r, !req.GetOmitTrace()))
	}
	return resp, nil
}

// normalizedPlan is plan's kept steps as the request's own messages: the
// kept steps are the raw steps normalization did not drop, unchanged and in
// order.
func normalizedPlan(raw []*triagev1.PlanStep, plan execution.Plan) []*triagev1.PlanStep {
	out := make([]*triagev1.PlanStep, 0, len(plan.Steps))
	d := 0
	for k, st := range raw {
		if d < len(plan.Log) && plan.Log[d].Index == k {
			d++
			continue
		}
		out = append(out, st)
	}
	return out
}

// run executes plan under regime r, with its trace when trace is set.
func run(p *execution.Pool, plan execution.Plan, budget int64, r triagev1.Regime, trace bool) execution.Result {
	switch {
	case !trace && r == triagev1.Regime_REGIME_ENFORCED:
		return execution.Execute(p, plan, budget, execution.Enforced)
	case !trace:
		return execution.Execute(p, plan, budget, execution.Advisory)
	case r == triagev1.Regime_REGIME_ENFORCED:
		return execution.RunEnforced(p, plan, budget)
	default:
		return execution.RunAdvisory(p, plan, budget)
	}
}

var outcomes = map[execution.Outcome]triagev1.TraceOutcome{
	execution.Scored:     triagev1.TraceOutcome_TRACE_OUTCOME_SCORED,
	execution.Truncated:  triagev1.TraceOutcome_TRACE_OUTCOME_TRUNCATED,
	execution.Stopped:    triagev1.TraceOutcome_TRACE_OUTCOME_STOPPED,
	execution.NotReached: triagev1.TraceOutcome_TRACE_OUTCOME_NOT_REACHED,
}

func regimeResult(r triagev1.Regime, res execution.Result) *triagev1.RegimeResult {
	out := &triagev1.RegimeResult{
		Regime:          r,
		Value:           res.Value,
		RemainingBudget: res.Remaining,
		Trace:           make([]*triagev1.TraceStep, len(res.Trace)),
	}
	for i, e := range res.Trace {
		out.Trace[i] = &triagev1.TraceStep{
			Id: e.ID, Tokens: e.Tokens, Cost: e.Cost, Correct: e.Correct,
			Outcome: outcomes[e.Outcome], Gain: e.Gain, RemainingBudget: e.Remaining,
		}
	}
	return out
}

// poolItems returns the pool's gradeable items, in pool order, and the ids
// of stored problems dropped because they are not gradeable.
func (s *Service) poolItems(ctx context.Context, req *triagev1.ExecutePlanRequest) ([]pool.Item, []string, error) {
	if inline := req.GetInline(); inline != nil {
		return protoconv.PoolItems(inline.GetItems()), nil, nil
	}
	stored := req.GetStored()
	if s.store == nil {
		return nil, nil, errNoStore
	}
	solver := solverFromProto(stored.GetSolver())
	known, err := s.store.HasSolver(ctx, solver)
	if err != nil {
		return nil, nil, err
	}
	if !known {
		return nil, nil, &apperr.NotFoundError{Kind: "solver", Keys: []string{solver.Model + "/" + solver.Mode}}
	}
	ids := stored.GetProblemIds()
	records, err := s.store.Get(ctx, solver, stored.GetDataset(), ids)
	if err != nil {
		return nil, nil, err
	}
	var missing, ungradeable []string
	items := make([]pool.Item, 0, len(ids))
	for _, id := range ids {
		rec, ok := records[id]
		switch {
		case !ok:
			missing = append(missing, stored.GetDataset()+"/"+id)
		case !rec.Gradeable:
			ungradeable = append(ungradeable, id)
		default:
			items = append(items, itemFromRecord(rec))
		}
	}
	if len(missing) > 0 {
		return nil, nil, &apperr.NotFoundError{Kind: "problem", Keys: missing}
	}
	return items, ungradeable, nil
}

// itemFromRecord turns stored ground truth into a pool item. Values are not
// stored: the main protocol keeps every value at 1 (SPEC §1).
func itemFromRecord(r groundtruth.Record) pool.Item {
	return pool.Item{ID: r.ProblemID, Cost: r.Cost, Value: 1, Correct: r.Correct}
}
