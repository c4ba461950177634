package oracle_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/protoconv"
	"github.com/triage-eval/triage/internal/protocol/execution"
	"github.com/triage-eval/triage/internal/protocol/partialref"
	"github.com/triage-eval/triage/internal/protocol/vocab"
	"github.com/triage-eval/triage/services/oracle"
)

// population returns members' records of every item of items: member k
// solves an item with probability 1/2 and spends a cost in [100, 4100].
func population(items []*triagev1.GroundTruthItem, members int, seed uint64) *triagev1.Population {
	rng := rand.New(rand.NewPCG(seed, 0x909))
	pop := &triagev1.Population{}
	for _, it := range items {
		pi := &triagev1.PopulationItem{Id: it.GetId()}
		for range members {
			pi.Records = append(pi.Records, &triagev1.PopulationRecord{Cost: 100 + rng.Int64N(4001), Correct: rng.IntN(2) == 0})
		}
		pop.Items = append(pop.Items, pi)
	}
	return pop
}

// TestPartialReferences checks that every budget carries the three plans
// partialref makes from the same records, in their order, and that a
// request without a population carries none.
func TestPartialReferences(t *testing.T) {
	client := newClient(t)
	items := pool30(3)
	pop := population(items, 3, 1)
	// Leave one item without records: it takes the pool's means.
	pop.Items = pop.Items[1:]
	budgets := alphas(0.25, 0.5, 1)
	resp, err := client.ComputeReferences(context.Background(), &triagev1.ComputeReferencesRequest{Items: items, Budgets: budgets, Population: pop})
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetNoPopulation() {
		t.Fatal("no_population with a population")
	}
	recs := make([][]partialref.Record, len(items))
	for _, pi := range pop.GetItems() {
		for i, it := range items {
			if it.GetId() == pi.GetId() {
				for _, r := range pi.GetRecords() {
					recs[i] = append(recs[i], partialref.Record{Cost: r.GetCost(), Correct: r.GetCorrect()})
				}
			}
		}
	}
	est, err := partialref.Estimate(protoconv.PoolItems(items), recs)
	if err != nil {
		t.Fatal(err)
	}
	for i, ref := range resp.GetReferences() {
		want := est.Plans(ref.GetBudget())
		got := ref.GetPartialReferences()
		if len(got) != len(vocab.PartialReferences()) {
			t.Fatalf("budgets[%d]: %d partial references, want %d", i, len(got), len(vocab.PartialReferences()))
		}
		for k, s := range vocab.PartialReferences() {
			if got[k].GetReference() != protoconv.PartialReferenceProto(s) {
				t.Errorf("budgets[%d]: partial_references[%d] is %v, want %s", i, k, got[k].GetReference(), s)
			}
			if g, w := steps(got[k].GetPlan()), want[s]; fmt.Sprint(g) != fmt.Sprint(w) {
				t.Errorf("budgets[%d] %s: plan %v, want %v", i, s, g, w)
			}
			spent := int64(0)
			for _, st := range got[k].GetPlan() {
				spent += st.GetTokens()
			}
			if spent > ref.GetBudget() {
				t.Errorf("budgets[%d] %s: plan spends %d of %d", i, s, spent, ref.GetBudget())
			}
		}
	}
	// Without a population: no plans and no no_population.
	resp, err = client.ComputeReferences(context.Background(), &triagev1.ComputeReferencesRequest{Items: items, Budgets: budgets})
	if err != nil {
		t.Fatal(err)
	}
	for i, ref := range resp.GetReferences() {
		if len(ref.GetPartialReferences()) != 0 || resp.GetNoPopulation() {
			t.Errorf("budgets[%d] without a population: %v, no_population %v", i, ref.GetPartialReferences(), resp.GetNoPopulation())
		}
	}
}

func steps(plan []*triagev1.PlanStep) []execution.Step {
	out := make([]execution.Step, len(plan))
	for i, st := range plan {
		out[i] = execution.Step{ID: st.GetId(), Tokens: st.GetTokens()}
	}
	return out
}

// TestNoPopulation: a population with no record of any item (a run of one
// model) is answered no_population, with the other references intact.
func TestNoPopulation(t *testing.T) {
	client := newClient(t)
	for _, tt := range []struct {
		name string
		pop  *triagev1.Population
	}{
		{"empty", &triagev1.Population{}},
		{"items without records", &triagev1.Population{Items: []*triagev1.PopulationItem{{Id: "p1"}, {Id: "p2"}}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := client.ComputeReferences(context.Background(), &triagev1.ComputeReferencesRequest{Items: pool30(4), Budgets: alphas(0.5), Population: tt.pop})
			if err != nil {
				t.Fatal(err)
			}
			ref := resp.GetReferences()[0]
			if !resp.GetNoPopulation() || len(ref.GetPartialReferences()) != 0 || ref.GetOracle().GetValue() == 0 {
				t.Errorf("no_population %v, partial references %v, oracle %v; want no_population, none, the oracle", resp.GetNoPopulation(), ref.GetPartialReferences(), ref.GetOracle())
			}
		})
	}
}

func TestPopulationValidation(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(r *triagev1.ComputeReferencesRequest)
		fields []string // every violation expected, in order
		reason string   // a word the first description must contain
	}{
		{"unknown id", func(r *triagev1.ComputeReferencesRequest) { r.Population.Items[2].Id = "nope" }, []string{"population.items[2].id"}, "not the id"},
		{"repeated id", func(r *triagev1.ComputeReferencesRequest) { r.Population.Items[4].Id = "p2" }, []string{"population.items[4].id"}, "population.items[1]"},
		{"zero cost", func(r *triagev1.ComputeReferencesRequest) { r.Population.Items[0].Records[1].Cost = 0 }, []string{"population.items[0].records[1].cost"}, "positive"},
		{"negative cost", func(r *triagev1.ComputeReferencesRequest) { r.Population.Items[3].Records[0].Cost = -7 }, []string{"population.items[3].records[0].cost"}, "-7"},
		{"huge cost", func(r *triagev1.ComputeReferencesRequest) { r.Population.Items[3].Records[0].Cost = oracle.MaxCost + 1 }, []string{"population.items[3].records[0].cost"}, "≤"},
		{"too many records", func(r *triagev1.ComputeReferencesRequest) {
			rec := &triagev1.PopulationRecord{Cost: 1}
			r.Population.Items[0].Records = make([]*triagev1.PopulationRecord, oracle.MaxPopulationRecords)
			for i := range r.Population.Items[0].Records {
				r.Population.Items[0].Records[i] = rec
			}
		}, []string{"population.items"}, "1000000 records"},
		{"too many items", func(r *triagev1.ComputeReferencesRequest) {
			r.Population.Items = make([]*triagev1.PopulationItem, oracle.MaxItems+1)
			for i := range r.Population.Items {
				r.Population.Items[i] = &triagev1.PopulationItem{Id: "p1"}
			}
		}, []string{"population.items"}, "at most"},
		{"work", func(r *triagev1.ComputeReferencesRequest) {
			r.Random = &triagev1.RandomReferenceOptions{Samples: 1}
			r.Budgets = spread(oracle.MaxBudgets)
			r.Items = bigPool(oracle.MaxWork/(oracle.MaxBudgets*(1+oracle.PartialWork))+1, 1, nil)
			r.Population = population(r.Items[:1], 1, 1)
		}, []string{"population"}, "exceeds 1e8"},
		{"with bad items", func(r *triagev1.ComputeReferencesRequest) {
			r.Items[0].Cost = 0
			r.Population.Items[1].Id = "nope" // not checked against invalid items
			r.Population.Items[2].Records[0].Cost = 0
		}, []string{"items[0].cost", "population.items[2].records[0].cost"}, "positive"},
	}
	client := newClient(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := validRequest()
			req.Population = population(req.Items, 2, 5)
			tt.mutate(req)
			_, err := client.ComputeReferences(context.Background(), req)
			if status.Code(err) != codes.InvalidArgument {
				t.Fatalf("code = %v (%v), want InvalidArgument", status.Code(err), err)
			}
			wantViolations(t, err, tt.fields, tt.reason)
		})
	}
}

// TestPopulationWithinWorkBound: the paper's call with a dozen members'
// records is far within the bound.
func TestPopulationWithinWorkBound(t *testing.T) {
	client := newClient(t)
	items := pool30(1)
	_, err := client.ComputeReferences(context.Background(), &triagev1.ComputeReferencesRequest{
		Items: items, Budgets: alphas(0.25, 0.5, 0.75, 1), Random: &triagev1.RandomReferenceOptions{Samples: 1000}, Population: population(items, 12, 2),
	})
	if err != nil {
		t.Fatal(err)
	}
}

// BenchmarkPartialReferences times the partial-information plans of the
// largest pool at one budget (population records on every item), with one
// Monte Carlo sample: the measure of PartialWork.
func BenchmarkPartialReferences(b *testing.B) {
	client := newClient(b)
	for _, n := range []int{30, 1000, 10_000} {
		items := bigPool(n, 1, nil)
		req := &triagev1.ComputeReferencesRequest{Items: items, Budgets: alphas(0.5), Random: &triagev1.RandomReferenceOptions{Samples: 1}, Population: population(items, 3, 1)}
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := client.ComputeReferences(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
