package executor

import (
	"fmt"
	"strconv"

	"github.com/triage-eval/triage/internal/protocol/pool"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/platform/protoconv"
	"github.com/triage-eval/triage/internal/store/groundtruth"
)

// Limits of ExecutePlan.
const (
	// MaxPlanSteps bounds the length of a plan as given (before
	// normalization).
	MaxPlanSteps = 10 * protoconv.MaxItems
	// MaxExecuteWork bounds regimes × (pool items + plan steps) of one
	// ExecutePlan: normalization and each regime are linear in both, and so
	// is the response (every dropped step and every trace step is listed).
	// At the bound a call takes about 0.2 s; the paper's calls (2 × (30 +
	// 30)) are far below it.
	MaxExecuteWork = 1_000_000
)

// ValidateRequest checks a unary request before its handler runs and
// reports every invalid field; see server.RequestValidator. Streamed imports
// are validated record by record as they arrive.
func (s *Service) ValidateRequest(_ string, req any) error {
	var v apperr.Violations
	switch r := req.(type) {
	case *triagev1.ExecutePlanRequest:
		validateExecutePlan(&v, r)
	case *triagev1.ListGroundTruthRequest:
		if r.GetSolver() != nil {
			validateSolver(&v, "solver", r.GetSolver())
		}
		if r.GetPageSize() < 0 {
			v.Add("page_size", "must be ≥ 0, got %d", r.GetPageSize())
		}
	}
	return v.Err()
}

func validateExecutePlan(v *apperr.Violations, req *triagev1.ExecutePlanRequest) {
	switch p := req.GetPool().(type) {
	case *triagev1.ExecutePlanRequest_Stored:
		validateStoredPool(v, p.Stored)
	case *triagev1.ExecutePlanRequest_Inline:
		protoconv.ValidateItems(v, "inline.items", p.Inline.GetItems())
	default:
		v.Add("pool", "set either stored or inline")
	}
	protoconv.ValidateBudget(v, "budget", req.GetBudget())
	if n := len(req.GetPlan()); n > MaxPlanSteps {
		v.Add("plan", "at most %d steps, got %d", MaxPlanSteps, n)
	} else {
		validateExecuteWork(v, req)
	}
	protoconv.ValidateRegimes(v, "regimes", req.GetRegimes())
}

func validateStoredPool(v *apperr.Violations, p *triagev1.StoredPool) {
	validateSolver(v, "stored.solver", p.GetSolver())
	if p.GetDataset() == "" {
		v.Add("stored.dataset", "must not be empty")
	}
	ids := p.GetProblemIds()
	if len(ids) > protoconv.MaxItems {
		v.Add("stored.problem_ids", "at most %d problems, got %d", protoconv.MaxItems, len(ids))
		return
	}
	seen := make(map[string]int, len(ids))
	for i, id := range ids {
		field := func() string { return "stored.problem_ids[" + strconv.Itoa(i) + "]" }
		if problem := pool.IDProblem(id); problem != "" {
			v.Add(field(), "%s", problem)
			continue
		}
		if first, dup := seen[id]; dup {
			v.Add(field(), "duplicate id %q (first at stored.problem_ids[%d])", id, first)
			continue
		}
		seen[id] = i
	}
}

func validateSolver(v *apperr.Violations, field string, s *triagev1.Solver) {
	if s.GetModel() == "" {
		v.Add(field+".model", "must not be empty")
	} else if len(s.GetModel()) > groundtruth.MaxModelBytes {
		v.Add(field+".model", "must be at most %d bytes", groundtruth.MaxModelBytes)
	}
	if _, ok := modeNames[s.GetMode()]; !ok {
		v.Add(field+".mode", "must be SOLVER_MODE_STANDARD or SOLVER_MODE_EXTENDED, got %v", s.GetMode())
	}
}

// validateExecuteWork bounds regimes × (pool items + plan steps)
// (MaxExecuteWork); no regime named means both.
func validateExecuteWork(v *apperr.Violations, req *triagev1.ExecutePlanRequest) {
	items := len(req.GetInline().GetItems()) + len(req.GetStored().GetProblemIds())
	steps := len(req.GetPlan())
	regimes := len(req.GetRegimes())
	if regimes == 0 {
		regimes = 2
	}
	work := float64(regimes) * float64(items+steps)
	if work <= MaxExecuteWork {
		return // the usual case: no formula to format
	}
	formula := fmt.Sprintf("regimes × (items + plan steps) = %d × (%d + %d)", regimes, items, steps)
	protoconv.CheckWork(v, "plan", formula, work, MaxExecuteWork,
		"a plan needs at most one step per item; send a shorter plan, fewer regimes or a smaller pool")
}
