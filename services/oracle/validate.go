package oracle

import (
	"fmt"
	"strconv"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/internal/platform/protoconv"
	"github.com/triage-eval/triage/internal/protocol/randomref"
)

// ValidateRequest checks a request before its handler runs and reports every
// invalid field; see server.RequestValidator.
func (s *Service) ValidateRequest(_ string, req any) error {
	switch r := req.(type) {
	case *triagev1.ComputeReferencesRequest:
		return validateComputeReferences(r)
	}
	return nil
}

func validateComputeReferences(req *triagev1.ComputeReferencesRequest) error {
	var v apperr.Violations
	items := req.GetItems()
	itemsOK := protoconv.ValidateItems(&v, "items", items)
	total := int64(0)
	if itemsOK {
		for _, it := range items {
			total += it.GetCost()
		}
	}
	budgets := validateBudgets(&v, req.GetBudgets(), total, itemsOK)
	if validateRandom(&v, req.GetRandom(), items, budgets, itemsOK) && itemsOK && len(req.GetBudgets()) <= MaxBudgets {
		validateWork(&v, len(items), len(req.GetBudgets()), req.GetRandom())
	}
	return v.Err()
}

// validateWork bounds items × budgets × samples (MaxWork).
func validateWork(v *apperr.Violations, items, budgets int, opts *triagev1.RandomReferenceOptions) {
	samples := 1
	if opts.GetMethod() != triagev1.RandomMethod_RANDOM_METHOD_EXACT {
		samples = samplesOf(opts)
	}
	formula := fmt.Sprintf("items × budgets × samples = %d × %d × %d", items, budgets, samples)
	protoconv.CheckWork(v, "random.samples", formula, float64(items)*float64(budgets)*float64(samples), MaxWork,
		"send fewer samples, budgets or items, or split the budgets over several requests")
}

// validateBudgets reports bad budgets and returns the resolved ones when
// every budget and item is valid.
func validateBudgets(v *apperr.Violations, specs []*triagev1.Budget, total int64, itemsOK bool) []int64 {
	switch {
	case len(specs) == 0:
		v.Add("budgets", "at least one budget is required")
		return nil
	case len(specs) > MaxBudgets:
		v.Add("budgets", "at most %d budgets per request, got %d", MaxBudgets, len(specs))
		return nil
	}
	out := make([]int64, 0, len(specs))
	for i, b := range specs {
		if !protoconv.ValidateBudget(v, "budgets["+strconv.Itoa(i)+"]", b) || !itemsOK {
			continue
		}
		tokens, _, err := protoconv.Tokens(b, total)
		if err != nil {
			v.Add("budgets["+strconv.Itoa(i)+"]", "%v", err)
			continue
		}
		out = append(out, tokens)
	}
	if len(out) != len(specs) {
		return nil
	}
	return out
}

// validateRandom reports bad random-reference options and returns whether
// they are valid.
func validateRandom(v *apperr.Violations, opts *triagev1.RandomReferenceOptions, items []*triagev1.GroundTruthItem, budgets []int64, itemsOK bool) bool {
	before := v.Len()
	samples := opts.GetSamples()
	switch opts.GetMethod() {
	case triagev1.RandomMethod_RANDOM_METHOD_UNSPECIFIED, triagev1.RandomMethod_RANDOM_METHOD_MONTE_CARLO:
		if samples < 0 || samples > MaxSamples {
			v.Add("random.samples", "must be in [1, %d] (0 means %d), got %d", MaxSamples, DefaultSamples, samples)
		}
	case triagev1.RandomMethod_RANDOM_METHOD_EXACT:
		if samples != 0 {
			v.Add("random.samples", "must be unset with the exact method, got %d", samples)
		}
		if !itemsOK || budgets == nil {
			return v.Len() == before
		}
		poolItems := protoconv.PoolItems(items)
		for i, b := range budgets {
			if err := randomref.CheckExact(poolItems, b); err != nil {
				v.Add("random.method", "the exact random reference is not possible at budgets[%d] (%d tokens): %v", i, b, err)
			}
		}
	default:
		v.Add("random.method", "unknown method %d", int32(opts.GetMethod()))
	}
	return v.Len() == before
}
