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
	randomOK := validateRandom(&v, req.GetRandom(), items, budgets, itemsOK)
	records, popOK := validatePopulation(&v, req.GetPopulation(), items, itemsOK)
	if randomOK && popOK && itemsOK && len(req.GetBudgets()) <= MaxBudgets {
		validateWork(&v, len(items), len(req.GetBudgets()), req.GetRandom(), req.GetPopulation() != nil, records)
	}
	return v.Err()
}

// validateWork bounds the work of a request (MaxWork): items × budgets ×
// samples for the random reference, plus, with a population, its records
// and PartialWork per item and budget for the partial-information plans;
// and its answer (MaxAnswerSteps).
func validateWork(v *apperr.Violations, items, budgets int, opts *triagev1.RandomReferenceOptions, population bool, records int) {
	samples := 1
	if opts.GetMethod() != triagev1.RandomMethod_RANDOM_METHOD_EXACT {
		samples = samplesOf(opts)
	}
	formula := fmt.Sprintf("items × budgets × samples = %d × %d × %d", items, budgets, samples)
	work := float64(items) * float64(budgets) * float64(samples)
	field, hint := "random.samples", "send fewer samples, budgets or items, or split the budgets over several requests"
	if population {
		formula = fmt.Sprintf("items × budgets × (samples + %d) + population records = %d × %d × (%d + %d) + %d", PartialWork, items, budgets, samples, PartialWork, records)
		work = float64(items)*float64(budgets)*float64(samples+PartialWork) + float64(records)
		field, hint = "population", "send fewer samples, budgets, items or population records, or split the budgets over several requests"
	}
	protoconv.CheckWork(v, field, formula, work, MaxWork, hint)
	plans := 1
	if population {
		plans += 3
	}
	protoconv.CheckWork(v, "budgets", fmt.Sprintf("the answer's plan steps, items × budgets × plans = %d × %d × %d", items, budgets, plans),
		float64(items)*float64(budgets)*float64(plans), MaxAnswerSteps, "send fewer budgets or items, or split the budgets over several requests")
}

// validatePopulation reports a bad population and returns its record count
// and whether it is valid: at most MaxPopulationRecords records, each item
// of the request at most once, every cost positive and at most MaxCost.
// Ids are checked against the items only when those are valid.
func validatePopulation(v *apperr.Violations, pop *triagev1.Population, items []*triagev1.GroundTruthItem, itemsOK bool) (int, bool) {
	if pop == nil {
		return 0, true
	}
	before := v.Len()
	popItems := pop.GetItems()
	if len(popItems) > MaxItems {
		v.Add("population.items", "at most %d items per request, got %d", MaxItems, len(popItems))
		return 0, false
	}
	records := 0
	for _, pi := range popItems {
		records += len(pi.GetRecords())
	}
	if records > MaxPopulationRecords {
		v.Add("population.items", "at most %d records over all items, got %d", MaxPopulationRecords, records)
		return records, false
	}
	ids := make(map[string]bool, len(items))
	for _, it := range items {
		ids[it.GetId()] = true
	}
	seen := make(map[string]int, len(popItems))
	for i, pi := range popItems {
		field := "population.items[" + strconv.Itoa(i) + "]"
		id := pi.GetId()
		if first, dup := seen[id]; dup {
			v.Add(field+".id", "repeats population.items[%d] (%q): give each item's records once", first, id)
		} else {
			seen[id] = i
			if itemsOK && !ids[id] {
				v.Add(field+".id", "%q is not the id of an item of the request", id)
			}
		}
		for j, r := range pi.GetRecords() {
			if c := r.GetCost(); c <= 0 || c > MaxCost {
				v.Add(field+".records["+strconv.Itoa(j)+"].cost", "must be a positive number of tokens ≤ %d, got %d", int64(MaxCost), c)
			}
		}
	}
	return records, v.Len() == before
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
