package scoring

import (
	"cmp"
	"context"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/protoconv"
	"github.com/triage-eval/triage/internal/protocol/knapsack"
	"github.com/triage-eval/triage/internal/protocol/planscore"
)

// scoredPool is a request's pool as it is scored.
type scoredPool struct {
	// items are the gradeable items, in pool order; flagged unsolvable
	// items are not correct (SPEC §1).
	items []*triagev1.GroundTruthItem
	// unsolvable marks items index for index; nil without flags.
	unsolvable []bool
	// ungradeable are the stored pool's problems dropped for want of
	// gradeable ground truth.
	ungradeable []string
}

// score scores a request ValidateRequest accepted: the plan is executed at
// every budget while the Oracle computes the references of all of them
// (unless they are cached). Responses of the Executor and the Oracle are
// shared with the response, never changed.
func (s *Service) score(ctx context.Context, req *triagev1.ScorePlanRequest) (*triagev1.ScorePlanResponse, error) {
	p, err := s.pool(ctx, req)
	if err != nil {
		return nil, err
	}
	budgets := req.GetBudgets()
	refs, key, cached := s.refs.lookup(p.items, budgets, req.GetOptions().GetRandom())
	var computed <-chan references
	if !cached {
		computed = s.references(ctx, key, &triagev1.ComputeReferencesRequest{Items: p.items, Budgets: budgets, Random: req.GetOptions().GetRandom()})
	}
	execs := make([]*triagev1.ExecutePlanResponse, len(budgets))
	var errs []callError
	pool := &triagev1.ExecutePlanRequest_Inline{Inline: &triagev1.InlinePool{Items: p.items}}
	for i, b := range budgets {
		execs[i], err = s.executor.ExecutePlan(ctx, &triagev1.ExecutePlanRequest{
			Pool: pool, Budget: b, Plan: req.GetPlan(), Regimes: req.GetRegimes(),
			OmitTrace: !req.GetOptions().GetIncludeTrace(),
		})
		if err != nil {
			errs = append(errs, callError{err: err, paths: executorPaths(req, i)})
			break // the other budgets would fail alike
		}
	}
	if computed != nil {
		r := <-computed
		if refs = r.resp; r.err != nil {
			errs = append(errs, callError{err: r.err, paths: oraclePaths(req)})
		}
	}
	if err := translate(errs); err != nil {
		return nil, err
	}
	return s.assemble(req, &p, execs, refs)
}

// references is the Oracle's answer to a ComputeReferences call.
type references struct {
	resp *triagev1.ComputeReferencesResponse
	err  error
}

// references asks the Oracle for the references of req, in a goroutine of
// its own, and caches the answer under key.
func (s *Service) references(ctx context.Context, key string, req *triagev1.ComputeReferencesRequest) <-chan references {
	out := make(chan references, 1)
	go func() {
		resp, err := s.oracle.ComputeReferences(ctx, req)
		if err == nil {
			s.refs.put(key, resp)
		}
		out <- references{resp: resp, err: err}
	}()
	return out
}

// pool returns the request's pool: the inline items, or the stored pool's
// gradeable items as the Executor resolves them.
func (s *Service) pool(ctx context.Context, req *triagev1.ScorePlanRequest) (scoredPool, error) {
	p := scoredPool{items: req.GetInline().GetItems()}
	if stored := req.GetStored(); stored != nil {
		resp, err := s.executor.ExecutePlan(ctx, &triagev1.ExecutePlanRequest{
			Pool:             &triagev1.ExecutePlanRequest_Stored{Stored: stored},
			Budget:           &triagev1.Budget{Kind: &triagev1.Budget_Tokens{Tokens: 0}},
			Regimes:          []triagev1.Regime{triagev1.Regime_REGIME_ADVISORY},
			OmitTrace:        true,
			IncludePoolItems: true,
		})
		if err != nil {
			return scoredPool{}, translate([]callError{{err: err, paths: executorPaths(req, -1)}})
		}
		p.items, p.ungradeable = resp.GetPoolItems(), resp.GetUngradeableProblemIds()
		if len(p.items) == 0 && len(p.ungradeable) == 0 {
			// Every problem of a stored pool is either an item or
			// ungradeable (a missing one is NotFound), and the pool is
			// never empty (validated): an Executor older than this
			// service dropped include_pool_items as an unknown field.
			// Scoring the empty pool would answer a degenerate pool with
			// η = 1, OK.
			return scoredPool{}, status.Errorf(codes.FailedPrecondition,
				"the executor answered the stored pool without its items: it ignores include_pool_items, as an Executor older than this Scoring service does (executor version %q); upgrade the Executor first",
				cmp.Or(resp.GetVersion().GetBinaryVersion(), "unknown"))
		}
	}
	if req.GetUnsolvable() == nil {
		return p, nil
	}
	flagged := make(map[string]bool, len(req.GetUnsolvable().GetIds()))
	for _, id := range req.GetUnsolvable().GetIds() {
		flagged[id] = true
	}
	p.unsolvable = make([]bool, len(p.items))
	items, copied := p.items, false
	for i, it := range p.items {
		if !flagged[it.GetId()] {
			continue
		}
		p.unsolvable[i] = true
		if it.GetCorrect() {
			if !copied {
				items, copied = append([]*triagev1.GroundTruthItem(nil), p.items...), true // the request's own are left alone
			}
			fixed := proto.CloneOf(it)
			fixed.Correct = false
			items[i] = fixed
		}
	}
	p.items = items
	return p, nil
}

// assemble scores the executions and references of a request.
func (s *Service) assemble(req *triagev1.ScorePlanRequest, p *scoredPool, execs []*triagev1.ExecutePlanResponse, refs *triagev1.ComputeReferencesResponse) (*triagev1.ScorePlanResponse, error) {
	if n := len(refs.GetReferences()); n != len(execs) {
		return nil, fmt.Errorf("the oracle returned %d references for %d budgets", n, len(execs))
	}
	first := execs[0]
	resp := &triagev1.ScorePlanResponse{
		Scores:                make([]*triagev1.BudgetScore, len(execs)),
		NormalizedPlan:        first.GetNormalizedPlan(),
		DroppedSteps:          first.GetDroppedSteps(),
		PlannedTokens:         first.GetPlannedTokens(),
		UngradeableProblemIds: p.ungradeable,
		PoolSize:              first.GetPoolSize(),
		TotalCost:             refs.GetTotalCost(),
		TotalValue:            refs.GetTotalValue(),
	}
	// The items and the normalized plan are the same at every budget; the
	// knapsack searches for V_S share one bound.
	sc := s.scratch.get(p.items, first.GetNormalizedPlan())
	defer s.scratch.put(sc)
	items, plan := sc.items, sc.plan
	states := knapsack.NewStateBudget(MaxKnapsackStates)
	for i, exec := range execs {
		ref := refs.GetReferences()[i]
		if ref.GetBudget() != exec.GetBudget() {
			return nil, fmt.Errorf("the executor and the oracle disagree on budgets[%d] (%d vs %d tokens)", i, exec.GetBudget(), ref.GetBudget())
		}
		in := protoconv.BudgetInput(items, plan, exec.GetResults(), ref)
		in.States = states
		if i == 0 {
			in.Unsolvable = p.unsolvable // D and W do not depend on the budget
		}
		scored, err := planscore.Score(in)
		if err != nil {
			return nil, decompositionError(req, i, err)
		}
		if i == 0 {
			resp.Diagnostics = protoconv.DiagnosticsProto(scored.Diagnostics)
			if p.unsolvable != nil {
				resp.Injection = injection(p.unsolvable, scored)
			}
		}
		orc := ref.GetOracle()
		if !req.GetOptions().GetIncludeOraclePlan() {
			orc = &triagev1.OracleReference{Value: orc.GetValue(), Cost: orc.GetCost()} // the cached one stays whole
		}
		bs := &triagev1.BudgetScore{
			Budget:     exec.GetBudget(),
			Alpha:      ref.Alpha,
			OverBudget: exec.GetOverBudget(),
			Oracle:     orc,
			Random:     ref.GetRandom(),
			Regimes:    make([]*triagev1.RegimeScore, len(scored.Regimes)),
		}
		bs.Decomposition = protoconv.DecompositionProto(scored) // nil when V_oracle = 0
		for k, sc := range scored.Regimes {
			res := exec.GetResults()[k]
			rs := &triagev1.RegimeScore{
				Regime:          res.GetRegime(),
				Value:           sc.Value,
				RemainingBudget: res.GetRemainingBudget(),
				Eta:             sc.Eta,
				Trace:           res.GetTrace(),
			}
			if sc.RegretDefined {
				rs.Regret = proto.Float64(sc.Regret)
			}
			bs.Regimes[k] = rs
			bs.Degeneracy = protoconv.DegeneracyProto(sc.Degenerate)
		}
		resp.Scores[i] = bs
	}
	return resp, nil
}

// injection is the InjectionScore of a plan scored with unsolvable marks.
func injection(unsolvable []bool, scored planscore.Result) *triagev1.InjectionScore {
	out := &triagev1.InjectionScore{Detection: scored.Detection}
	if scored.Waste != nil {
		out.Waste = *scored.Waste
	}
	for _, u := range unsolvable {
		if u {
			out.Unsolvable++
		}
	}
	return out
}
