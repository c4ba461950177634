package oracle

import (
	"fmt"
	"math"
	"strconv"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/apperr"
	"github.com/triage-eval/triage/internal/budget"
	"github.com/triage-eval/triage/internal/pool"
	"github.com/triage-eval/triage/internal/randomref"
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
	itemsOK := validateItems(&v, items)
	total := int64(0)
	if itemsOK {
		for _, it := range items {
			total += it.GetCost()
		}
	}
	budgets := validateBudgets(&v, req.GetBudgets(), total, itemsOK)
	validateRandom(&v, req.GetRandom(), items, budgets, itemsOK)
	return v.Err()
}

// validateItems reports bad items and whether they can be used further.
func validateItems(v *apperr.Violations, items []*triagev1.GroundTruthItem) bool {
	if len(items) > MaxItems {
		v.Add("items", "at most %d items per request, got %d", MaxItems, len(items))
		return false
	}
	before := v.Len()
	seen := make(map[string]int, len(items))
	// Field names are formatted only for violations: valid items, the usual
	// case, cost no formatting.
	field := func(i int, name string) string { return fmt.Sprintf("items[%d].%s", i, name) }
	for i, it := range items {
		switch id := it.GetId(); {
		case id == "":
			v.Add(field(i, "id"), "must not be empty")
		case len(id) > MaxIDBytes:
			v.Add(field(i, "id"), "must be at most %d bytes, got %d", MaxIDBytes, len(id))
		default:
			if first, dup := seen[id]; dup {
				v.Add(field(i, "id"), "duplicate id %q (first at items[%d])", id, first)
			} else {
				seen[id] = i
			}
		}
		if c := it.GetCost(); c <= 0 || c > MaxCost {
			v.Add(field(i, "cost"), "must be a positive number of tokens ≤ %d, got %d", int64(MaxCost), c)
		}
		if it.Value != nil {
			if val := it.GetValue(); math.IsNaN(val) || val <= 0 || val > MaxValue {
				v.Add(field(i, "value"), "must be finite, > 0 and ≤ %g, got %v", MaxValue, val)
			}
		}
	}
	return v.Len() == before
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
		field := "budgets[" + strconv.Itoa(i) + "]"
		switch k := b.GetKind().(type) {
		case *triagev1.Budget_Tokens:
			if k.Tokens < 0 {
				v.Add(field+".tokens", "must be ≥ 0, got %d", k.Tokens)
			}
			out = append(out, k.Tokens)
		case *triagev1.Budget_Alpha:
			if !(k.Alpha > 0 && k.Alpha <= 1) {
				v.Add(field+".alpha", "must be in (0, 1], got %v", k.Alpha)
				continue
			}
			if itemsOK {
				tokens, err := budget.FromAlpha(k.Alpha, total)
				if err != nil {
					v.Add(field+".alpha", "%v", err)
				}
				out = append(out, tokens)
			}
		default:
			v.Add(field, "set either tokens or alpha")
		}
	}
	if len(out) != len(specs) {
		return nil
	}
	return out
}

func validateRandom(v *apperr.Violations, opts *triagev1.RandomReferenceOptions, items []*triagev1.GroundTruthItem, budgets []int64, itemsOK bool) {
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
			return
		}
		poolItems := toPoolItems(items)
		for i, b := range budgets {
			if err := randomref.CheckExact(poolItems, b); err != nil {
				v.Add("random.method", "exact random reference not possible at budgets[%d] = %d: %v", i, b, err)
			}
		}
	default:
		v.Add("random.method", "unknown method %d", int32(opts.GetMethod()))
	}
}

// toPoolItems converts validated items; an unset value means 1.
func toPoolItems(items []*triagev1.GroundTruthItem) []pool.Item {
	out := make([]pool.Item, len(items))
	for i, it := range items {
		value := 1.0
		if it.Value != nil {
			value = it.GetValue()
		}
		out[i] = pool.Item{ID: it.GetId(), Cost: it.GetCost(), Value: value, Correct: it.GetCorrect()}
	}
	return out
}
