package oracle_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/internal/testkit/golden"
	"github.com/triage-eval/triage/services/oracle"
)

func oracleService() server.Service {
	return server.Service{Name: "oracle", Desc: &triagev1.OracleService_ServiceDesc, Impl: oracle.NewService()}
}

func newClient(t testing.TB) triagev1.OracleServiceClient {
	return triagev1.NewOracleServiceClient(servertest.Start(t, nil, oracleService()))
}

func TestComputeReferencesSweep(t *testing.T) {
	client := newClient(t)
	items := pool30(1)
	var total int64
	var solvableCosts []int64
	for _, it := range items {
		total += it.GetCost()
		if it.GetCorrect() {
			solvableCosts = append(solvableCosts, it.GetCost())
		}
	}
	slices.Sort(solvableCosts)
	budgets := append(alphas(0.25, 0.5, 0.75, 1), tokens(0, 1, total*10)...)
	resp, err := client.ComputeReferences(context.Background(), &triagev1.ComputeReferencesRequest{Items: items, Budgets: budgets})
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetTotalCost() != total || resp.GetTotalValue() != float64(len(solvableCosts)) {
		t.Errorf("totals = %d, %v; want %d, %d", resp.GetTotalCost(), resp.GetTotalValue(), total, len(solvableCosts))
	}
	wantBudgets := []int64{total / 4, total / 2, total * 3 / 4, total, 0, 1, total * 10}
	if len(resp.GetReferences()) != len(wantBudgets) {
		t.Fatalf("%d references, want %d", len(resp.GetReferences()), len(wantBudgets))
	}
	costOf := map[string]int64{}
	for _, it := range items {
		costOf[it.GetId()] = it.GetCost()
	}
	for i, ref := range resp.GetReferences() {
		b := ref.GetBudget()
		if b != wantBudgets[i] {
			t.Errorf("references[%d].budget = %d, want %d", i, b, wantBudgets[i])
		}
		if (i < 4) != (ref.Alpha != nil) {
			t.Errorf("references[%d].alpha set = %v", i, ref.Alpha != nil)
		}
		// Uniform values: the oracle takes the cheapest solvable items.
		var want, spent int64
		for _, c := range solvableCosts {
			if spent+c > b {
				break
			}
			spent += c
			want++
		}
		o := ref.GetOracle()
		if o.GetValue() != float64(want) || o.GetCost() != spent || len(o.GetPlan()) != int(want) {
			t.Errorf("budget %d: oracle = %v/%d tokens/%d steps, want %d/%d/%d", b, o.GetValue(), o.GetCost(), len(o.GetPlan()), want, spent, want)
		}
		var prev int64
		for _, step := range o.GetPlan() {
			if step.GetTokens() != costOf[step.GetId()] || step.GetTokens() < prev {
				t.Errorf("budget %d: plan step %v is not cheapest-first with tokens = cost", b, step)
			}
			prev = step.GetTokens()
		}
		r := ref.GetRandom()
		if r.GetMethod() != triagev1.RandomMethod_RANDOM_METHOD_MONTE_CARLO || r.GetSamples() != oracle.DefaultSamples {
			t.Errorf("budget %d: random = %v, want Monte Carlo with %d samples", b, r, oracle.DefaultSamples)
		}
		if r.GetMean() > o.GetValue()+1e-9 {
			t.Errorf("budget %d: random %v beats the oracle %v", b, r.GetMean(), o.GetValue())
		}
		if b >= total && (r.GetMean() != o.GetValue() || r.GetStandardError() != 0) {
			t.Errorf("budget %d ≥ Σc: random = %v ± %v, want exactly the oracle %v", b, r.GetMean(), r.GetStandardError(), o.GetValue())
		}
	}
}

func TestExactMethod(t *testing.T) {
	client := newClient(t)
	items := pool30(2)[:12]
	req := &triagev1.ComputeReferencesRequest{
		Items:   items,
		Budgets: alphas(0.3, 0.6),
		Random:  &triagev1.RandomReferenceOptions{Method: triagev1.RandomMethod_RANDOM_METHOD_EXACT},
	}
	exact, err := client.ComputeReferences(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	req.Random = &triagev1.RandomReferenceOptions{Samples: 20000, Seed: 9}
	mc, err := client.ComputeReferences(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	for i, ref := range exact.GetReferences() {
		e, m := ref.GetRandom(), mc.GetReferences()[i].GetRandom()
		if e.GetMethod() != triagev1.RandomMethod_RANDOM_METHOD_EXACT || e.GetStandardError() != 0 || e.GetSamples() != 0 {
			t.Errorf("exact result = %v", e)
		}
		if d := e.GetMean() - m.GetMean(); d > 4*m.GetStandardError() || -d > 4*m.GetStandardError() {
			t.Errorf("budget %d: exact %v vs Monte Carlo %v ± %v", ref.GetBudget(), e.GetMean(), m.GetMean(), m.GetStandardError())
		}
	}
}

func TestSeedReproducibleAndBudgetIndependent(t *testing.T) {
	client := newClient(t)
	items := pool30(3)
	call := func(budgets []*triagev1.Budget, seed uint64) []*triagev1.BudgetReferences {
		t.Helper()
		resp, err := client.ComputeReferences(context.Background(), &triagev1.ComputeReferencesRequest{
			Items: items, Budgets: budgets, Random: &triagev1.RandomReferenceOptions{Seed: seed},
		})
		if err != nil {
			t.Fatal(err)
		}
		return resp.GetReferences()
	}
	sweep := call(alphas(0.25, 0.5, 0.75), 42)
	again := call(alphas(0.25, 0.5, 0.75), 42)
	alone := call(alphas(0.5), 42)
	other := call(alphas(0.5), 43)
	for i := range sweep {
		if !proto.Equal(sweep[i], again[i]) {
			t.Errorf("same seed, different result: %v vs %v", sweep[i], again[i])
		}
	}
	if !proto.Equal(sweep[1].GetRandom(), alone[0].GetRandom()) {
		t.Errorf("α = 0.5 alone %v differs from inside the sweep %v", alone[0].GetRandom(), sweep[1].GetRandom())
	}
	if other[0].GetRandom().GetMean() == alone[0].GetRandom().GetMean() {
		t.Error("a different seed gave the same mean")
	}
}

// TestGolden pins one whole response: the oracle plans, the budgets derived
// from α, and the Monte Carlo stream for a fixed seed.
func TestGolden(t *testing.T) {
	client := newClient(t)
	req := &triagev1.ComputeReferencesRequest{
		Items:   pool30(7)[:10],
		Budgets: append(alphas(0.25, 0.5, 0.75, 1), tokens(5000)...),
		Random:  &triagev1.RandomReferenceOptions{Samples: 500, Seed: 2026},
	}
	req.Items[3].Value = proto.Float64(2.5)
	resp, err := client.ComputeReferences(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Version = nil // the build's, set by the server runner (server.TestResponsesAreStamped)
	raw, err := protojson.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer // protojson's spacing is deliberately unstable
	if err := json.Indent(&got, raw, "", "  "); err != nil {
		t.Fatal(err)
	}
	got.WriteByte('\n')
	golden.File(t, filepath.Join("testdata", "compute_references.golden.json"), got.Bytes())
}
