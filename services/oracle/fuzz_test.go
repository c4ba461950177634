package oracle_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/apperr"
	"github.com/triage-eval/triage/services/oracle"
)

// FuzzValidateComputeReferences feeds arbitrary requests to the validator and
// the handler: a request the validator accepts must be computed without
// error and with sane results; one it rejects must name at least one field.
func FuzzValidateComputeReferences(f *testing.F) {
	seeds := []*triagev1.ComputeReferencesRequest{
		validRequest(),
		{Items: pool30(9)[:5], Budgets: append(alphas(0.25, 1), tokens(0, 3000)...), Random: &triagev1.RandomReferenceOptions{Samples: 10, Seed: 3}},
		{Items: pool30(9)[:6], Budgets: alphas(0.5), Random: &triagev1.RandomReferenceOptions{Method: triagev1.RandomMethod_RANDOM_METHOD_EXACT}},
		{Items: []*triagev1.GroundTruthItem{{Id: "a", Cost: -1, Value: proto.Float64(0)}}, Budgets: []*triagev1.Budget{{}}},
		{},
		{Items: pool30(9)[:5], Budgets: alphas(0.5, 1), Random: &triagev1.RandomReferenceOptions{Samples: 10}, Population: population(pool30(9)[:4], 2, 1)},
		{Items: pool30(9)[:3], Budgets: tokens(0, 900), Random: &triagev1.RandomReferenceOptions{Samples: 10}, Population: &triagev1.Population{}},
		{Items: pool30(9)[:3], Budgets: alphas(0.5), Population: &triagev1.Population{Items: []*triagev1.PopulationItem{{Id: "zz", Records: []*triagev1.PopulationRecord{{Cost: 0}}}}}},
	}
	for _, s := range seeds {
		b, err := proto.Marshal(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	svc := oracle.NewService()
	f.Fuzz(func(t *testing.T, data []byte) {
		req := &triagev1.ComputeReferencesRequest{}
		if proto.Unmarshal(data, req) != nil {
			return
		}
		if s := req.GetRandom().GetSamples(); int64(s)*int64(len(req.GetItems())) > 2_000_000 {
			return // valid but slow; keeps each fuzz input fast
		}
		err := svc.ValidateRequest("", req)
		if err != nil {
			var inv *apperr.InvalidArgumentError
			if !errors.As(err, &inv) || len(inv.Violations) == 0 {
				t.Fatalf("rejection is not a field violation list: %v", err)
			}
			for _, v := range inv.Violations {
				if v.Field == "" || v.Description == "" {
					t.Fatalf("violation without field or reason: %+v", v)
				}
			}
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // only catches a hang
		defer cancel()
		resp, err := svc.ComputeReferences(ctx, req)
		if err != nil {
			t.Fatalf("valid request failed: %v", err)
		}
		if len(resp.GetReferences()) != len(req.GetBudgets()) {
			t.Fatalf("%d results for %d budgets", len(resp.GetReferences()), len(req.GetBudgets()))
		}
		for _, ref := range resp.GetReferences() {
			o, r := ref.GetOracle(), ref.GetRandom()
			if o.GetCost() > ref.GetBudget() || o.GetValue() > resp.GetTotalValue()*(1+1e-12) {
				t.Fatalf("oracle %v infeasible at budget %d", o, ref.GetBudget())
			}
			if r.GetMean() > o.GetValue()*(1+1e-9)+1e-9 || r.GetMean() < 0 {
				t.Fatalf("random %v outside [0, oracle %v]", r.GetMean(), o.GetValue())
			}
			for _, p := range ref.GetPartialReferences() {
				spent := int64(0)
				for _, st := range p.GetPlan() {
					spent += st.GetTokens()
				}
				if spent > ref.GetBudget() {
					t.Fatalf("%v plan spends %d at budget %d", p.GetReference(), spent, ref.GetBudget())
				}
			}
		}
	})
}
