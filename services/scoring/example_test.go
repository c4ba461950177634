package scoring_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/services/executor"
	"github.com/triage-eval/triage/services/oracle"
	"github.com/triage-eval/triage/services/scoring"
)

// Example scores a planner's plan on an inline pool of four problems at
// α = 0.5 in one call, composing an Executor (no store: the pool comes
// with the request) and an Oracle in the same process. The plan attempts
// p4 (worth two points) and p1 with less than p1 costs, which counts under
// the advisory regime and is cut off under the enforced one; p9 is not in
// the pool and is dropped. Over gRPC the response also carries the
// server's version stamp.
func Example() {
	svc := scoring.New(scoring.LocalExecutor(executor.New(nil, time.Now)), scoring.LocalOracle(oracle.NewService()), scoring.Options{})
	req := &triagev1.ScorePlanRequest{
		Pool: &triagev1.ScorePlanRequest_Inline{Inline: &triagev1.InlinePool{Items: []*triagev1.GroundTruthItem{
			{Id: "p1", Cost: 1200, Correct: true},
			{Id: "p2", Cost: 800, Correct: false},
			{Id: "p3", Cost: 3000, Correct: true},
			{Id: "p4", Cost: 500, Correct: true, Value: proto.Float64(2)},
		}}},
		Budgets: []*triagev1.Budget{{Kind: &triagev1.Budget_Alpha{Alpha: 0.5}}},
		Plan:    []*triagev1.PlanStep{{Id: "p4", Tokens: 600}, {Id: "p1", Tokens: 1000}, {Id: "p9", Tokens: 50}},
		Options: &triagev1.ScoringOptions{Random: &triagev1.RandomReferenceOptions{Samples: 2000, Seed: 1}},
	}
	// A server checks every request before it calls the service.
	if err := svc.ValidateRequest("/triage.v1.ScoringService/ScorePlan", req); err != nil {
		fmt.Println(err)
		return
	}
	resp, err := svc.ScorePlan(context.Background(), req)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range resp.GetDroppedSteps() {
		fmt.Printf("dropped %s: %s\n", d.GetId(), d.GetReason())
	}
	at := resp.GetScores()[0]
	fmt.Printf("budget %d: oracle %.4f, random %.4f±%.4f, %s\n", at.GetBudget(), at.GetOracle().GetValue(),
		at.GetRandom().GetMean(), at.GetRandom().GetStandardError(), strings.ToLower(strings.TrimPrefix(at.GetDegeneracy().String(), "DEGENERACY_")))
	for _, r := range at.GetRegimes() {
		fmt.Printf("%s: value %.4f, η %.4f, regret %.4f\n", r.GetRegime(), r.GetValue(), r.GetEta(), r.GetRegret())
	}
	// Output:
	// dropped p9: PLAN_DROP_REASON_UNKNOWN_ID
	// budget 2750: oracle 3.0000, random 1.4870±0.0279, informative
	// REGIME_ADVISORY: value 3.0000, η 1.0000, regret 0.0000
	// REGIME_ENFORCED: value 2.0000, η 0.3391, regret 0.3333
}
