package scoring_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"

	"github.com/google/go-cmp/cmp"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/internal/platform/server"
	"github.com/triage-eval/triage/internal/platform/servertest"
	"github.com/triage-eval/triage/services/executor"
	"github.com/triage-eval/triage/services/oracle"
	"github.com/triage-eval/triage/services/scoring"
)

// decomposition is a RegretDecomposition written V_S, selection, order,
// enforcement.
func decomposition(vs, selection, order, enforcement float64) *triagev1.RegretDecomposition {
	return &triagev1.RegretDecomposition{PlannedValue: vs, Selection: selection, Order: order, Enforcement: enforcement}
}

// diagnostics is a PlanDiagnostics; NaN stands for an unset field.
func diagnostics(precision, recall, forecast, under float64) *triagev1.PlanDiagnostics {
	opt := func(x float64) *float64 {
		if math.IsNaN(x) {
			return nil
		}
		return proto.Float64(x)
	}
	return &triagev1.PlanDiagnostics{Precision: opt(precision), Recall: opt(recall), CostForecast: opt(forecast), UnderAllocation: opt(under)}
}

// TestScorePlanDecompositionAndDiagnostics checks the regret decomposition
// and the plan diagnostics of plans whose every term is worked out by hand.
// The pool: a (cost 10, solvable), b (20, solvable), c (30, not), d (40,
// solvable); at B = 60 the oracle takes two solvable items (V_oracle = 2).
// The decomposition is checked at B = 60, the second budget, and at both
// budgets against the identities selection + order = R̃_U and + enforcement
// = R̃_E; the diagnostics do not depend on the budget.
func TestScorePlanDecompositionAndDiagnostics(t *testing.T) {
	abcd := inline(item("a", 10, true), item("b", 20, true), item("c", 30, false), item("d", 40, true))
	nan := math.NaN()
	tests := []struct {
		name        string
		pool        *triagev1.ScorePlanRequest_Inline
		plan        []*triagev1.PlanStep
		regimes     []triagev1.Regime
		unsolvable  *triagev1.UnsolvableItems
		decomposed  *triagev1.RegretDecomposition // at B = 60; nil: unset
		diagnostics *triagev1.PlanDiagnostics
	}{{
		// S = {a, b}, both at their cost: nothing lost.
		name: "optimal", pool: abcd, plan: steps("a", 10, "b", 20),
		decomposed:  decomposition(2, 0, 0, 0),
		diagnostics: diagnostics(1, 2.0/3, 0, 0),
	}, {
		// S = {c, a}: only a is solvable, V_S = 1.
		name: "selection loss", pool: abcd, plan: steps("c", 30, "a", 10),
		decomposed:  decomposition(1, 0.5, 0, 0),
		diagnostics: diagnostics(0.5, 1.0/3, 0, 0),
	}, {
		// S = {c, d, a}: a + d fit (V_S = 2), but c spends 30 and d (40)
		// then stops the plan under both regimes.
		name: "order loss", pool: abcd, plan: steps("c", 30, "d", 40, "a", 10),
		decomposed:  decomposition(2, 0, 1, 0),
		diagnostics: diagnostics(2.0/3, 2.0/3, 0, 0),
	}, {
		// b given a quarter of its cost: U scores it, E truncates it.
		name: "enforcement loss", pool: abcd, plan: steps("a", 10, "b", 5),
		decomposed:  decomposition(2, 0, 0, 0.5),
		diagnostics: diagnostics(1, 2.0/3, -1, 0.5),
	}, {
		// c given 1 token: E truncates it cheaply and reaches d and a,
		// U spends its cost (30) and stops at d. The enforced regime was
		// not asked for: the decomposition executes it.
		name: "negative enforcement", pool: abcd, plan: steps("c", 1, "d", 40, "a", 10),
		regimes:     []triagev1.Regime{triagev1.Regime_REGIME_ADVISORY},
		decomposed:  decomposition(2, 0, 1, -1),
		diagnostics: diagnostics(2.0/3, 2.0/3, 0, 0),
	}, {
		// The empty plan: S is empty, so precision and the cost forecast
		// are undefined; recall is 0, the whole regret is selection.
		name: "empty plan", pool: abcd, plan: nil,
		decomposed:  decomposition(0, 1, 0, 0),
		diagnostics: diagnostics(nan, 0, nan, nan),
	}, {
		// Nothing solvable: V_oracle = 0, no decomposition; Y is empty.
		name: "no value", pool: inline(item("a", 10, false), item("b", 20, false)), plan: steps("a", 20),
		diagnostics: diagnostics(0, nan, 1, nan),
	}, {
		// Every solvable item flagged unsolvable: V_oracle = 0 too, and
		// the flagged items are not in Y.
		name: "all unsolvable", pool: inline(item("a", 10, true), item("b", 20, true)), plan: steps("a", 5, "b", 20),
		unsolvable:  &triagev1.UnsolvableItems{Ids: []string{"a", "b"}},
		diagnostics: diagnostics(0, nan, -0.5, nan),
	}}
	for _, comp := range compositions {
		t.Run(comp.name, func(t *testing.T) {
			f := comp.start(t)
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					resp, err := f.scoring.ScorePlan(context.Background(), &triagev1.ScorePlanRequest{
						Pool: tt.pool, Budgets: []*triagev1.Budget{tokens(15), tokens(60)}, Plan: tt.plan,
						Regimes: tt.regimes, Unsolvable: tt.unsolvable,
						Options: &triagev1.ScoringOptions{Random: &triagev1.RandomReferenceOptions{Method: triagev1.RandomMethod_RANDOM_METHOD_EXACT}},
					})
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(tt.diagnostics, resp.GetDiagnostics(), protocmp.Transform()); diff != "" {
						t.Errorf("diagnostics (-want +got):\n%s", diff)
					}
					if diff := cmp.Diff(tt.decomposed, resp.GetScores()[1].GetDecomposition(), protocmp.Transform()); diff != "" {
						t.Errorf("decomposition at B = 60 (-want +got):\n%s", diff)
					}
					for _, b := range resp.GetScores() {
						checkIdentities(t, b)
					}
				})
			}
		})
	}
}

// checkIdentities checks that a budget's decomposition is set exactly when
// R̃ is, and then sums to R̃ under each regime the response holds.
func checkIdentities(t *testing.T, b *triagev1.BudgetScore) {
	t.Helper()
	d := b.GetDecomposition()
	for _, r := range b.GetRegimes() {
		if (d == nil) != (r.Regret == nil) {
			t.Errorf("budget %d: decomposition %v with regret %v", b.GetBudget(), d, r.Regret)
			continue
		}
		if d == nil {
			continue
		}
		sum := d.GetSelection() + d.GetOrder()
		if r.GetRegime() == triagev1.Regime_REGIME_ENFORCED {
			sum += d.GetEnforcement()
		}
		if math.Abs(sum-r.GetRegret()) > 1e-12 {
			t.Errorf("budget %d, %v: the decomposition sums to %v, R̃ = %v", b.GetBudget(), r.GetRegime(), sum, r.GetRegret())
		}
	}
}

// fixedOracle answers every request with V_oracle = 1 and V_random = 0 at
// each (token) budget, without searching: a stand-in for an Oracle whose
// own search stayed within its bound.
type fixedOracle struct{}

func (fixedOracle) ComputeReferences(_ context.Context, req *triagev1.ComputeReferencesRequest) (*triagev1.ComputeReferencesResponse, error) {
	out := &triagev1.ComputeReferencesResponse{}
	for _, it := range req.GetItems() {
		out.TotalCost += it.GetCost()
	}
	for _, b := range req.GetBudgets() {
		out.References = append(out.References, &triagev1.BudgetReferences{
			Budget: b.GetTokens(),
			Oracle: &triagev1.OracleReference{Value: 1},
			Random: &triagev1.RandomReference{Method: triagev1.RandomMethod_RANDOM_METHOD_EXACT},
		})
	}
	return out, nil
}

// TestScorePlanKnapsackStateBound checks that a pool whose V_S search would
// exceed MaxKnapsackStates is refused as the Oracle refuses its own: an
// InvalidArgument on the pool's items naming the bound. Values strongly
// correlated with costs make the search examine millions of states per
// budget at 1,000 items; the plan attempts every item, so V_S's search is
// the oracle's. With the real Oracle its own search runs out first; with
// one that answers without searching, the decomposition's does.
func TestScorePlanKnapsackStateBound(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 0x11))
	items := make([]*triagev1.GroundTruthItem, 1000)
	var plan []*triagev1.PlanStep
	var total int64
	for i := range items {
		c := 1 + r.Int64N(32768)
		items[i] = &triagev1.GroundTruthItem{Id: fmt.Sprintf("q%d", i), Cost: c, Correct: true, Value: proto.Float64(float64(c + 1000))}
		plan = append(plan, &triagev1.PlanStep{Id: items[i].Id, Tokens: c})
		total += c
	}
	var budgets []*triagev1.Budget
	for _, a := range []int64{3, 4, 5, 6, 7} {
		budgets = append(budgets, tokens(total*a/10))
	}
	for _, tt := range []struct {
		name   string
		oracle scoring.Oracle
		says   string // in the description: whose search ran out
	}{
		{"the oracle's search", scoring.LocalOracle(oracle.NewService()), "the exact oracle"},
		{"the decomposition's search", fixedOracle{}, "V_S of the regret decomposition"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			svc := scoring.New(scoring.LocalExecutor(executor.New(nil, time.Now)), tt.oracle, scoring.Options{})
			conn := servertest.Start(t, nil, server.Service{Name: "scoring", Desc: &triagev1.ScoringService_ServiceDesc, Impl: svc})
			start := time.Now()
			_, err := triagev1.NewScoringServiceClient(conn).ScorePlan(context.Background(), &triagev1.ScorePlanRequest{
				Pool: inline(items...), Budgets: budgets, Plan: plan,
				Regimes: []triagev1.Regime{triagev1.Regime_REGIME_ADVISORY},
				Options: &triagev1.ScoringOptions{Random: &triagev1.RandomReferenceOptions{Samples: 1}},
			})
			t.Logf("refused after %v", time.Since(start))
			if status.Code(err) != codes.InvalidArgument {
				t.Fatalf("code = %v (%v), want InvalidArgument", status.Code(err), err)
			}
			fvs := grpcerr.FieldViolations(err)
			want := fmt.Sprintf("%d Pareto states", scoring.MaxKnapsackStates)
			if len(fvs) != 1 || fvs[0].GetField() != "inline.items" || !strings.Contains(fvs[0].GetDescription(), want) || !strings.Contains(fvs[0].GetDescription(), tt.says) {
				t.Errorf("violations = %v, want one on inline.items naming %q and %q", fvs, want, tt.says)
			}
		})
	}
}
