package oracle_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/services/oracle"
)

func validRequest() *triagev1.ComputeReferencesRequest {
	return &triagev1.ComputeReferencesRequest{Items: pool30(5), Budgets: alphas(0.5)}
}

func TestValidationErrorsNameTheField(t *testing.T) {
	many := func(n int) []*triagev1.GroundTruthItem {
		out := make([]*triagev1.GroundTruthItem, n)
		for i := range out {
			out[i] = &triagev1.GroundTruthItem{Id: fmt.Sprintf("q%d", i), Cost: 10}
		}
		return out
	}
	tests := []struct {
		name   string
		mutate func(r *triagev1.ComputeReferencesRequest)
		fields []string // every violation expected, in order
		reason string   // a word the first description must contain
	}{
		{"empty id", func(r *triagev1.ComputeReferencesRequest) { r.Items[2].Id = "" }, []string{"items[2].id"}, "empty"},
		{"long id", func(r *triagev1.ComputeReferencesRequest) { r.Items[0].Id = strings.Repeat("x", oracle.MaxIDBytes+1) }, []string{"items[0].id"}, "bytes"},
		{"duplicate id", func(r *triagev1.ComputeReferencesRequest) { r.Items[7].Id = "p1" }, []string{"items[7].id"}, "index 0"},
		{"zero cost", func(r *triagev1.ComputeReferencesRequest) { r.Items[1].Cost = 0 }, []string{"items[1].cost"}, "positive"},
		{"negative cost", func(r *triagev1.ComputeReferencesRequest) { r.Items[1].Cost = -5 }, []string{"items[1].cost"}, "-5"},
		{"huge cost", func(r *triagev1.ComputeReferencesRequest) { r.Items[1].Cost = oracle.MaxCost + 1 }, []string{"items[1].cost"}, "≤"},
		{"zero value", func(r *triagev1.ComputeReferencesRequest) { r.Items[4].Value = proto.Float64(0) }, []string{"items[4].value"}, "> 0"},
		{"NaN value", func(r *triagev1.ComputeReferencesRequest) { r.Items[4].Value = proto.Float64(math.NaN()) }, []string{"items[4].value"}, "NaN"},
		{"infinite value", func(r *triagev1.ComputeReferencesRequest) { r.Items[4].Value = proto.Float64(math.Inf(1)) }, []string{"items[4].value"}, "finite"},
		{"too many items", func(r *triagev1.ComputeReferencesRequest) { r.Items = many(oracle.MaxItems + 1) }, []string{"items"}, "at most"},
		{"no budgets", func(r *triagev1.ComputeReferencesRequest) { r.Budgets = nil }, []string{"budgets"}, "required"},
		{"too many budgets", func(r *triagev1.ComputeReferencesRequest) { r.Budgets = tokens(make([]int64, oracle.MaxBudgets+1)...) }, []string{"budgets"}, "at most"},
		{"budget without kind", func(r *triagev1.ComputeReferencesRequest) { r.Budgets = append(r.Budgets, &triagev1.Budget{}) }, []string{"budgets[1]"}, "either"},
		{"negative tokens", func(r *triagev1.ComputeReferencesRequest) { r.Budgets = tokens(10, -1) }, []string{"budgets[1].tokens"}, "≥ 0"},
		{"alpha zero", func(r *triagev1.ComputeReferencesRequest) { r.Budgets = alphas(0) }, []string{"budgets[0].alpha"}, "(0, 1]"},
		{"alpha above one", func(r *triagev1.ComputeReferencesRequest) { r.Budgets = alphas(0.5, 1.5) }, []string{"budgets[1].alpha"}, "1.5"},
		{"alpha NaN", func(r *triagev1.ComputeReferencesRequest) { r.Budgets = alphas(math.NaN()) }, []string{"budgets[0].alpha"}, "NaN"},
		{"negative samples", func(r *triagev1.ComputeReferencesRequest) { r.Random = &triagev1.RandomReferenceOptions{Samples: -1} }, []string{"random.samples"}, "-1"},
		{"too many samples", func(r *triagev1.ComputeReferencesRequest) {
			r.Random = &triagev1.RandomReferenceOptions{Samples: oracle.MaxSamples + 1}
		}, []string{"random.samples"}, "1000000"},
		{"samples with exact", func(r *triagev1.ComputeReferencesRequest) {
			r.Random = &triagev1.RandomReferenceOptions{Method: triagev1.RandomMethod_RANDOM_METHOD_EXACT, Samples: 10}
		}, []string{"random.samples"}, "exact"},
		{"exact beyond its limit", func(r *triagev1.ComputeReferencesRequest) {
			r.Items = many(100)
			r.Random = &triagev1.RandomReferenceOptions{Method: triagev1.RandomMethod_RANDOM_METHOD_EXACT}
		}, []string{"random.method"}, "budgets[0]"},
		{"unknown method", func(r *triagev1.ComputeReferencesRequest) { r.Random = &triagev1.RandomReferenceOptions{Method: 9} }, []string{"random.method"}, "unknown"},
		{"several at once", func(r *triagev1.ComputeReferencesRequest) {
			r.Items[0].Id, r.Items[3].Cost = "", 0
			r.Budgets = alphas(2)
		}, []string{"items[0].id", "items[3].cost", "budgets[0].alpha"}, "empty"},
	}
	client := newClient(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := validRequest()
			tt.mutate(req)
			_, err := client.ComputeReferences(context.Background(), req)
			if status.Code(err) != codes.InvalidArgument {
				t.Fatalf("code = %v (%v), want InvalidArgument", status.Code(err), err)
			}
			wantViolations(t, err, tt.fields, tt.reason)
		})
	}
}

// TestEdgeCasesAreValid covers pools the protocol allows however odd.
func TestEdgeCasesAreValid(t *testing.T) {
	client := newClient(t)
	unsolved := pool30(6)
	for _, it := range unsolved {
		it.Correct = false
	}
	tests := []struct {
		name  string
		req   *triagev1.ComputeReferencesRequest
		value float64
	}{
		{"empty pool", &triagev1.ComputeReferencesRequest{Budgets: alphas(0.5)}, 0},
		{"empty pool, tokens", &triagev1.ComputeReferencesRequest{Budgets: tokens(100)}, 0},
		{"nothing solvable", &triagev1.ComputeReferencesRequest{Items: unsolved, Budgets: alphas(0.5, 1)}, 0},
		{"budget zero", &triagev1.ComputeReferencesRequest{Items: pool30(6), Budgets: tokens(0)}, 0},
		{"one item costlier than B", &triagev1.ComputeReferencesRequest{
			Items:   []*triagev1.GroundTruthItem{{Id: "a", Cost: 100, Correct: true}},
			Budgets: tokens(99),
		}, 0},
	}
	for _, tt := range tests {
		for _, method := range []triagev1.RandomMethod{triagev1.RandomMethod_RANDOM_METHOD_MONTE_CARLO, triagev1.RandomMethod_RANDOM_METHOD_EXACT} {
			t.Run(tt.name+"/"+method.String(), func(t *testing.T) {
				req := proto.Clone(tt.req).(*triagev1.ComputeReferencesRequest)
				req.Random = &triagev1.RandomReferenceOptions{Method: method}
				resp, err := client.ComputeReferences(context.Background(), req)
				if err != nil {
					t.Fatal(err)
				}
				for _, ref := range resp.GetReferences() {
					if ref.GetOracle().GetValue() != tt.value || ref.GetRandom().GetMean() != tt.value || len(ref.GetOracle().GetPlan()) != 0 {
						t.Errorf("budget %d: oracle %v, random %v; want %v and an empty plan", ref.GetBudget(), ref.GetOracle(), ref.GetRandom(), tt.value)
					}
				}
			})
		}
	}
}

// wantViolations checks that err's field violations name exactly fields,
// in order, and that the first one's description says reason.
func wantViolations(t *testing.T, err error, fields []string, reason string) {
	t.Helper()
	fvs := grpcerr.FieldViolations(err)
	var got []string
	for _, fv := range fvs {
		got = append(got, fv.GetField())
	}
	if strings.Join(got, " ") != strings.Join(fields, " ") {
		t.Fatalf("violations on %v, want %v (%v)", got, fields, err)
	}
	if !strings.Contains(fvs[0].GetDescription(), reason) {
		t.Errorf("description %q does not say %q", fvs[0].GetDescription(), reason)
	}
}
