package scoring

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/internal/platform/protoconv"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// Score scores the plan through the Scoring service (one budget, both
// regimes, with traces and the oracle plan), which composes the Executor
// and the Oracle. Invalid input the service rejects comes back as an
// *InputError naming the document's fields; file names the document in
// it.
func Score(ctx context.Context, c triagev1.ScoringServiceClient, file string, in *Input) (*Output, error) {
	items := make([]*triagev1.GroundTruthItem, len(in.Items))
	unsolvable := &triagev1.UnsolvableItems{}
	for i, it := range in.Items {
		items[i] = &triagev1.GroundTruthItem{Id: it.ID, Cost: it.Cost, Correct: it.Correct, Value: it.Value}
		if it.Unsolvable {
			unsolvable.Ids = append(unsolvable.Ids, it.ID)
		}
	}
	budget := &triagev1.Budget{}
	if in.Alpha != nil {
		budget.Kind = &triagev1.Budget_Alpha{Alpha: *in.Alpha}
	} else {
		budget.Kind = &triagev1.Budget_Tokens{Tokens: *in.Budget}
	}
	plan := make([]*triagev1.PlanStep, len(in.Plan))
	for i, st := range in.Plan {
		plan[i] = &triagev1.PlanStep{Id: st.ID, Tokens: st.Tokens}
	}
	random := &triagev1.RandomReferenceOptions{Method: triagev1.RandomMethod_RANDOM_METHOD_MONTE_CARLO}
	if r := in.Random; r != nil {
		random.Samples, random.Seed = r.Samples, r.Seed
		if r.Method == MethodExact {
			random.Method = triagev1.RandomMethod_RANDOM_METHOD_EXACT
		}
	}
	resp, err := c.ScorePlan(ctx, &triagev1.ScorePlanRequest{
		Pool:       &triagev1.ScorePlanRequest_Inline{Inline: &triagev1.InlinePool{Items: items}},
		Budgets:    []*triagev1.Budget{budget},
		Plan:       plan,
		Unsolvable: unsolvable,
		Options:    &triagev1.ScoringOptions{Random: random, IncludeTrace: true, IncludeOraclePlan: true},
	})
	if err != nil {
		return nil, in.translate(file, err)
	}
	if n := len(resp.GetScores()); n != 1 {
		return nil, fmt.Errorf("the scoring service returned %d scores for one budget", n)
	}
	return in.output(resp), nil
}

// output is the document for the service's response.
func (in *Input) output(resp *triagev1.ScorePlanResponse) *Output {
	score := resp.GetScores()[0]
	out := &Output{
		Budget:          score.GetBudget(),
		Alpha:           in.Alpha,
		TotalCost:       resp.GetTotalCost(),
		PoolSize:        int(resp.GetPoolSize()),
		OracleValue:     score.GetOracle().GetValue(),
		OraclePlan:      steps(score.GetOracle().GetPlan()),
		RandomValue:     score.GetRandom().GetMean(),
		RandomStderr:    score.GetRandom().GetStandardError(),
		RandomMethod:    enumName(score.GetRandom().GetMethod().String(), "RANDOM_METHOD_"),
		RandomSamples:   score.GetRandom().GetSamples(),
		RandomSeed:      score.GetRandom().GetSeed(),
		Regimes:         map[vocab.Regime]RegimeScore{},
		Detection:       resp.GetInjection().Detection,
		Waste:           resp.GetInjection().GetWaste(),
		Precision:       resp.GetDiagnostics().Precision,
		Recall:          resp.GetDiagnostics().Recall,
		CostForecast:    resp.GetDiagnostics().CostForecast,
		UnderAllocation: resp.GetDiagnostics().UnderAllocation,
		PlannedTokens:   resp.GetPlannedTokens(),
		OverBudget:      score.GetOverBudget(),
		NormalizedPlan:  steps(resp.GetNormalizedPlan()),
		DroppedSteps:    []DroppedStep{},
		Warnings:        []string{},
	}
	if d := score.GetDecomposition(); d != nil {
		out.PlannedValue, out.SelectionLoss = &d.PlannedValue, &d.Selection
		out.OrderLoss, out.EnforcementLoss = &d.Order, &d.Enforcement
	}
	for _, s := range score.GetRegimes() {
		rs := RegimeScore{
			Value:           s.GetValue(),
			Eta:             s.GetEta(),
			Regret:          s.Regret,
			RemainingBudget: s.GetRemainingBudget(),
			Trace:           make([]TraceStep, len(s.GetTrace())),
		}
		for i, t := range s.GetTrace() {
			rs.Trace[i] = TraceStep{
				ID: t.GetId(), Tokens: t.GetTokens(), Cost: t.GetCost(), Correct: t.GetCorrect(),
				Outcome: enumName(t.GetOutcome().String(), "TRACE_OUTCOME_"), Gain: t.GetGain(), RemainingBudget: t.GetRemainingBudget(),
			}
		}
		r, _ := protoconv.Regime(s.GetRegime())
		out.Regimes[r] = rs
	}
	if out.OverBudget {
		out.Warnings = append(out.Warnings, fmt.Sprintf("the plan allocates %d tokens, over the budget of %d: it is executed anyway and flagged (SPEC §1)", out.PlannedTokens, out.Budget))
	}
	for i, it := range in.Items {
		if it.Unsolvable && it.Correct {
			out.Warnings = append(out.Warnings, fmt.Sprintf("items[%d] (id %q) is unsolvable: it scores 0 although correct is true (a lucky guess is not a solve, SPEC §1)", i, it.ID))
		}
	}
	for _, d := range resp.GetDroppedSteps() {
		reason := enumName(d.GetReason().String(), "PLAN_DROP_REASON_")
		out.DroppedSteps = append(out.DroppedSteps, DroppedStep{Index: int(d.GetIndex()), ID: d.GetId(), Tokens: d.GetTokens(), Reason: reason})
		out.Warnings = append(out.Warnings, fmt.Sprintf("plan[%d] (id %q, %d tokens) was dropped: %s", d.GetIndex(), d.GetId(), d.GetTokens(), dropExplanations[reason]))
	}
	return out
}

var dropExplanations = map[string]string{
	"unknown_id": "the id is not in the pool",
	"duplicate":  "the id appears earlier in the plan, whose first occurrence is kept",
	"negative":   "a negative allocation counts as 0, so the item is not attempted",
	"zero":       "an allocation of 0 means the item is not attempted",
}

func steps(plan []*triagev1.PlanStep) []Step {
	out := make([]Step, len(plan))
	for i, st := range plan {
		out[i] = Step{ID: st.GetId(), Tokens: st.GetTokens()}
	}
	return out
}

// enumName turns "TRACE_OUTCOME_NOT_REACHED" into "not_reached".
func enumName(name, prefix string) string {
	return strings.ToLower(strings.TrimPrefix(name, prefix))
}

// requestPaths map the Scoring service's field paths to the input
// document's.
var requestPaths = []struct{ from, to string }{
	{"inline.items", "items"},
	{"budgets[0].alpha", "alpha"},
	{"budgets[0].tokens", "budget"},
	{"options.random", "random"},
}

// translate turns the service's InvalidArgument error into an *InputError
// on the document's paths; other errors pass through.
func (in *Input) translate(file string, err error) error {
	if status.Code(err) != codes.InvalidArgument {
		return err
	}
	fvs := grpcerr.FieldViolations(err)
	if len(fvs) == 0 {
		return err
	}
	var problems []Problem
	seen := map[Problem]bool{}
	for _, fv := range fvs {
		field := fv.GetField()
		for _, m := range requestPaths {
			if field == m.from || strings.HasPrefix(field, m.from+".") || strings.HasPrefix(field, m.from+"[") {
				field = m.to + strings.TrimPrefix(field, m.from)
				break
			}
		}
		p := Problem{Line: in.lines.Line(field), Field: field, Reason: fv.GetDescription()}
		if !seen[p] {
			seen[p] = true
			problems = append(problems, p)
		}
	}
	slices.SortStableFunc(problems, func(a, b Problem) int { return a.Line - b.Line })
	return &InputError{File: file, Problems: problems}
}
