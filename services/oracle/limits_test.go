package oracle_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/services/oracle"
)

// bigPool returns n items with costs in [1, 32768], 60% correct, and values
// drawn from value (nil: unit values).
func bigPool(n int, seed uint64, value func(r *rand.Rand, cost int64) float64) []*triagev1.GroundTruthItem {
	r := rand.New(rand.NewPCG(seed, 0x11))
	out := make([]*triagev1.GroundTruthItem, n)
	for i := range out {
		c := 1 + r.Int64N(32768)
		out[i] = &triagev1.GroundTruthItem{Id: fmt.Sprintf("q%d", i), Cost: c, Correct: r.IntN(10) < 6}
		if value != nil {
			out[i].Value = proto.Float64(value(r, c))
		}
	}
	return out
}

// spread returns n α budgets spread evenly up to 0.999.
func spread(n int) []*triagev1.Budget {
	as := make([]float64, n)
	for i := range as {
		as[i] = 0.999 * float64(i+1) / float64(n)
	}
	return alphas(as...)
}

func TestWorkBound(t *testing.T) {
	client := newClient(t)
	tests := []struct {
		name    string
		req     *triagev1.ComputeReferencesRequest
		wantMsg string // "" for a request within the bound
	}{
		{
			name:    "the issue's request",
			req:     &triagev1.ComputeReferencesRequest{Items: bigPool(oracle.MaxItems, 1, nil), Budgets: spread(64), Random: &triagev1.RandomReferenceOptions{Samples: oracle.MaxSamples}},
			wantMsg: "items × budgets × samples = 100000 × 64 × 1000000 = 6.4e12 exceeds 1e8",
		},
		{
			name:    "default samples count",
			req:     &triagev1.ComputeReferencesRequest{Items: bigPool(1600, 1, nil), Budgets: spread(64)},
			wantMsg: "1600 × 64 × 1000 = 1.02e8 exceeds 1e8",
		},
		{
			name: "at the bound",
			req:  &triagev1.ComputeReferencesRequest{Items: bigPool(1000, 1, nil), Budgets: spread(4), Random: &triagev1.RandomReferenceOptions{Samples: 25_000}},
		},
		{
			name: "the paper's call",
			req:  &triagev1.ComputeReferencesRequest{Items: pool30(1), Budgets: alphas(0.25, 0.5, 0.75, 1), Random: &triagev1.RandomReferenceOptions{Samples: 1000}},
		},
		{
			name: "exact counts one sample",
			req:  &triagev1.ComputeReferencesRequest{Items: pool30(1), Budgets: spread(64), Random: &triagev1.RandomReferenceOptions{Method: triagev1.RandomMethod_RANDOM_METHOD_EXACT}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := client.ComputeReferences(context.Background(), tt.req)
			if tt.wantMsg == "" {
				if err != nil {
					t.Fatalf("err = %v, want a result", err)
				}
				return
			}
			if status.Code(err) != codes.InvalidArgument {
				t.Fatalf("code = %v (%v), want InvalidArgument", status.Code(err), err)
			}
			fvs := grpcerr.FieldViolations(err)
			if !slices.ContainsFunc(fvs, func(fv *errdetails.BadRequest_FieldViolation) bool {
				return fv.GetField() == "random.samples" && strings.Contains(fv.GetDescription(), tt.wantMsg)
			}) {
				t.Errorf("violations = %v, want one on random.samples containing %q", fvs, tt.wantMsg)
			}
		})
	}
}

// TestAnswerBound: an answer of more than MaxAnswerSteps plan steps is
// refused before any work, naming the budgets, however little the random
// reference costs (10 samples): it was once built, hundreds of MB, and
// only then refused for its size.
func TestAnswerBound(t *testing.T) {
	client := newClient(t)
	few := &triagev1.RandomReferenceOptions{Samples: 10}
	_, err := client.ComputeReferences(context.Background(), &triagev1.ComputeReferencesRequest{Items: bigPool(oracle.MaxItems, 1, nil), Budgets: spread(11), Random: few})
	fvs := grpcerr.FieldViolations(err)
	if status.Code(err) != codes.InvalidArgument || len(fvs) != 1 || fvs[0].GetField() != "budgets" ||
		!strings.Contains(fvs[0].GetDescription(), "items × budgets × plans = 100000 × 11 × 1 = 1.1e6 exceeds 1e6") {
		t.Fatalf("100,000 items at 11 budgets: %v, want one violation on budgets naming the answer's plan steps", err)
	}
	if _, err := client.ComputeReferences(context.Background(), &triagev1.ComputeReferencesRequest{Items: bigPool(oracle.MaxItems, 1, nil), Budgets: spread(10), Random: few}); err != nil {
		t.Fatalf("100,000 items at 10 budgets: %v, want an answer", err)
	}
}

func TestKnapsackStateBound(t *testing.T) {
	// Values strongly correlated with costs make the general oracle search
	// millions of states per budget at 1,000 items: five budgets exceed the
	// per-request bound.
	items := bigPool(1000, 4, func(_ *rand.Rand, c int64) float64 { return float64(c + 1000) })
	for _, it := range items {
		it.Correct = true
	}
	client := newClient(t)
	start := time.Now()
	_, err := client.ComputeReferences(context.Background(), &triagev1.ComputeReferencesRequest{Items: items, Budgets: alphas(0.3, 0.4, 0.5, 0.6, 0.7), Random: &triagev1.RandomReferenceOptions{Samples: 1}})
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("code = %v (%v), want InvalidArgument", status.Code(err), err)
	}
	fvs := grpcerr.FieldViolations(err)
	if len(fvs) != 1 || fvs[0].GetField() != "items" || !strings.Contains(fvs[0].GetDescription(), "16777216 Pareto states") {
		t.Errorf("violations = %v, want one on items naming the state bound", fvs)
	}
	t.Logf("rejected after %v", time.Since(start))
}

// BenchmarkMaximalRequest times requests at the work bound (MaxWork) in
// their slowest shapes: one budget near α = 1 over the largest pool, with
// unit values (the packed kernel) and with non-integer values (the float
// kernel, and over several budgets the general oracle), and a pool whose
// values make the general oracle run into MaxKnapsackStates (answered
// InvalidArgument).
func BenchmarkMaximalRequest(b *testing.B) {
	frac := func(r *rand.Rand, _ int64) float64 { return 0.5 + r.Float64() }
	hard := bigPool(1000, 4, func(_ *rand.Rand, c int64) float64 { return float64(c + 1000) })
	for _, it := range hard {
		it.Correct = true
	}
	cases := []struct {
		name     string
		items    []*triagev1.GroundTruthItem
		budgets  int
		rejected bool
	}{
		{name: "unit/items=100000/budgets=1", items: bigPool(oracle.MaxItems, 1, nil), budgets: 1},
		{name: "real/items=100000/budgets=1", items: bigPool(oracle.MaxItems, 1, frac), budgets: 1},
		{name: "real/items=100000/budgets=8", items: bigPool(oracle.MaxItems, 1, frac), budgets: 8},
		{name: "unit/items=30/budgets=4", items: bigPool(30, 1, nil), budgets: 4},
		{name: "correlated/items=1000/budgets=64", items: hard, budgets: 64, rejected: true},
	}
	client := newClient(b)
	for _, c := range cases {
		samples := int32(min(oracle.MaxWork/(len(c.items)*c.budgets), oracle.MaxSamples))
		req := &triagev1.ComputeReferencesRequest{Items: c.items, Budgets: spread(c.budgets), Random: &triagev1.RandomReferenceOptions{Samples: samples, Seed: 1}}
		b.Run(fmt.Sprintf("%s/samples=%d", c.name, samples), func(b *testing.B) {
			for b.Loop() {
				_, err := client.ComputeReferences(context.Background(), req)
				if (err != nil) != c.rejected || (c.rejected && status.Code(err) != codes.InvalidArgument) {
					b.Fatalf("err = %v, want rejected = %v", err, c.rejected)
				}
			}
		})
	}
}
