package planner

import (
	"fmt"
	"math"
	"strconv"

	"github.com/triage-eval/triage/internal/protocol/pool"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/platform/protoconv"
)

// Limits of planner requests.
const (
	// MaxProblems is the largest pool a planner is shown.
	MaxProblems = 10_000
	// MaxTextBytes is the longest problem text.
	MaxTextBytes = 1 << 20
	// MaxRawOutputBytes is the longest output RepairPlan accepts.
	MaxRawOutputBytes = 8 << 20
)

// ValidateRequest checks a request before its handler runs and reports every
// invalid field; see server.RequestValidator.
func (s *Service) ValidateRequest(_ string, req any) error {
	var v apperr.Violations
	switch r := req.(type) {
	case *triagev1.CreatePlanRequest:
		s.validateCreatePlan(&v, r)
	case *triagev1.RepairPlanRequest:
		if len(r.GetRawOutput()) > MaxRawOutputBytes {
			v.Add("raw_output", "at most %d bytes, got %d", MaxRawOutputBytes, len(r.GetRawOutput()))
		}
		validateIDs(&v, "problem_ids", r.GetProblemIds())
		if r.Budget != nil && r.GetBudget() < 0 {
			v.Add("budget", "must be ≥ 0, got %d", r.GetBudget())
		}
	}
	return v.Err()
}

func (s *Service) validateCreatePlan(v *apperr.Violations, r *triagev1.CreatePlanRequest) {
	problems := r.GetProblems()
	if len(problems) > MaxProblems {
		v.Add("problems", "at most %d problems, got %d", MaxProblems, len(problems))
	} else {
		ids := make([]string, len(problems))
		for i, p := range problems {
			ids[i] = p.GetId()
			field := func(leaf string) string { return "problems[" + strconv.Itoa(i) + "]." + leaf }
			if len(p.GetText()) > MaxTextBytes {
				v.Add(field("text"), "at most %d bytes, got %d", MaxTextBytes, len(p.GetText()))
			}
			if p.Value != nil {
				if val := p.GetValue(); math.IsNaN(val) || val <= 0 || val > protoconv.MaxValue {
					v.Add(field("value"), "must be finite, > 0 and ≤ %g, got %v", protoconv.MaxValue, val)
				}
			}
		}
		validateIDs(v, "problems", ids)
	}
	if r.GetBudget() < 0 {
		v.Add("budget", "must be ≥ 0, got %d", r.GetBudget())
	}
	if _, ok := protoconv.Variant(r.GetVariant()); !ok {
		v.Add("variant", "unknown variant %v", r.GetVariant())
	}
	switch r.GetStrategy() {
	case triagev1.PlannerStrategy_PLANNER_STRATEGY_UNSPECIFIED, triagev1.PlannerStrategy_PLANNER_STRATEGY_LLM:
		switch e := r.GetEndpoint().(type) {
		case *triagev1.CreatePlanRequest_EndpointName:
			if _, ok := s.cfg.Endpoints[e.EndpointName]; !ok {
				v.Add("endpoint_name", "no endpoint %q is configured on this server (%s)", e.EndpointName, s.endpointNames())
			}
		case *triagev1.CreatePlanRequest_InlineEndpoint:
			s.validateInline(v, e.InlineEndpoint)
		default:
			v.Add("endpoint", "the LLM strategy needs endpoint_name or inline_endpoint")
		}
	case triagev1.PlannerStrategy_PLANNER_STRATEGY_RANDOM, triagev1.PlannerStrategy_PLANNER_STRATEGY_SHORTEST_FIRST, triagev1.PlannerStrategy_PLANNER_STRATEGY_ALL_IN_ORDER:
		if r.GetEndpoint() != nil {
			v.Add("endpoint", "only the LLM strategy calls a model; leave it unset for %v", r.GetStrategy())
		}
	default:
		v.Add("strategy", "unknown strategy %v", r.GetStrategy())
	}
}

// validateIDs requires unique problem ids (pool.IDProblem) (field
// "problems" gives "problems[3].id"; "problem_ids" gives "problem_ids[3]").
func validateIDs(v *apperr.Violations, field string, ids []string) {
	name := func(i int) string {
		if field == "problems" {
			return fmt.Sprintf("problems[%d].id", i)
		}
		return fmt.Sprintf("%s[%d]", field, i)
	}
	seen := make(map[string]int, len(ids))
	for i, id := range ids {
		if problem := pool.IDProblem(id); problem != "" {
			v.Add(name(i), "%s", problem)
			continue
		}
		if first, dup := seen[id]; dup {
			v.Add(name(i), "duplicate id %q (first at index %d)", id, first)
			continue
		}
		seen[id] = i
	}
}
