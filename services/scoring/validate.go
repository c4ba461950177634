package scoring

import (
	"fmt"
	"strconv"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/platform/protoconv"
	"github.com/triage-eval/triage/services/oracle"
)

// ValidateRequest checks a ScorePlanRequest before its handler runs and
// reports every invalid field it can see without the stored ground truth;
// see server.RequestValidator. The Executor and the Oracle check the rest
// (a stored pool, budgets against the pool, the random reference), and their
// violations come back under the request's own paths. A ScorePlans batch is
// checked by its handler, request by request.
func (s *Service) ValidateRequest(_ string, req any) error {
	if r, ok := req.(*triagev1.ScorePlanRequest); ok {
		return validateScorePlan(r)
	}
	return nil
}

// validateScorePlan checks what the service itself owns of a request.
func validateScorePlan(req *triagev1.ScorePlanRequest) error {
	var v apperr.Violations
	switch p := req.GetPool().(type) {
	case *triagev1.ScorePlanRequest_Inline:
		if len(p.Inline.GetItems()) == 0 {
			v.Add("inline.items", "must hold at least one item: an empty pool has nothing to triage")
		}
		protoconv.ValidateItems(&v, "inline.items", p.Inline.GetItems())
	case *triagev1.ScorePlanRequest_Stored:
		if len(p.Stored.GetProblemIds()) == 0 {
			v.Add("stored.problem_ids", "must name at least one problem: an empty pool has nothing to triage")
		}
	case nil:
		v.Add("pool", "set either stored or inline")
	default:
		v.Add("pool", "unknown pool kind %T", p)
	}
	switch n := len(req.GetBudgets()); {
	case n == 0:
		v.Add("budgets", "at least one budget is required")
	case n > MaxBudgets:
		v.Add("budgets", "at most %d budgets per request, got %d", MaxBudgets, n)
	default:
		for i, b := range req.GetBudgets() {
			protoconv.ValidateBudget(&v, budgetField(i), b)
		}
	}
	protoconv.ValidateRegimes(&v, "regimes", req.GetRegimes())
	if req.GetUnsolvable() != nil {
		ids := make(map[string]bool, poolSize(req))
		for _, it := range req.GetInline().GetItems() {
			ids[it.GetId()] = true
		}
		for _, id := range req.GetStored().GetProblemIds() {
			ids[id] = true
		}
		validateUnsolvable(&v, req.GetUnsolvable().GetIds(), ids)
	}
	if work := executeWork(req); len(req.GetBudgets()) <= MaxBudgets && work > MaxExecuteWork {
		formula := fmt.Sprintf("budgets × regimes × (items + plan steps) = %d × %d × (%d + %d)", len(req.GetBudgets()), regimeCount(req), poolSize(req), len(req.GetPlan()))
		protoconv.CheckWork(&v, "plan", formula, work, MaxExecuteWork,
			"a plan needs at most one step per item; send a shorter plan, fewer budgets or regimes, or a smaller pool")
	}
	return v.Err()
}

// budgetField is the path of budgets[i]; the usual few cost no allocation.
func budgetField(i int) string {
	switch i {
	case 0:
		return "budgets[0]"
	case 1:
		return "budgets[1]"
	case 2:
		return "budgets[2]"
	case 3:
		return "budgets[3]"
	}
	return "budgets[" + strconv.Itoa(i) + "]"
}

// validateUnsolvable reports unsolvable ids that are empty, repeated or
// not in pool (the ids of the pool's items).
func validateUnsolvable(v *apperr.Violations, ids []string, pool map[string]bool) {
	if len(ids) > MaxUnsolvable {
		v.Add("unsolvable.ids", "at most %d ids, got %d", MaxUnsolvable, len(ids))
		return
	}
	seen := make(map[string]int, len(ids))
	for i, id := range ids {
		field := func() string { return "unsolvable.ids[" + strconv.Itoa(i) + "]" }
		if first, dup := seen[id]; dup {
			v.Add(field(), "duplicate id %q (first at unsolvable.ids[%d])", id, first)
			continue
		}
		seen[id] = i
		if !pool[id] {
			v.Add(field(), "%q is not an item of the pool", id)
		}
	}
}

// regimeCount is how many regimes req asks for (none means both).
func regimeCount(req *triagev1.ScorePlanRequest) int {
	if n := len(req.GetRegimes()); n > 0 {
		return n
	}
	return 2
}

// poolSize is how many items req's pool names.
func poolSize(req *triagev1.ScorePlanRequest) int {
	return len(req.GetInline().GetItems()) + len(req.GetStored().GetProblemIds())
}

// executeWork is budgets × regimes × (items + plan steps) of req.
func executeWork(req *triagev1.ScorePlanRequest) float64 {
	return float64(len(req.GetBudgets())) * float64(regimeCount(req)) * float64(poolSize(req)+len(req.GetPlan()))
}

// batchWork is what one request counts towards MaxBatchWork.
func batchWork(req *triagev1.ScorePlanRequest) float64 {
	samples := float64(oracle.DefaultSamples)
	switch r := req.GetOptions().GetRandom(); {
	case r.GetMethod() == triagev1.RandomMethod_RANDOM_METHOD_EXACT:
		samples = 1
	case r.GetSamples() > 0:
		samples = float64(r.GetSamples())
	}
	return float64(poolSize(req))*float64(len(req.GetBudgets()))*samples + executeWork(req)
}
