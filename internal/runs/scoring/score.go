package scoring

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/platform/grpcerr"
	"github.com/triage-eval/triage/internal/platform/protoconv"
	"github.com/triage-eval/triage/internal/protocol/planscore"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// Clients are the services Score composes.
type Clients struct {
	Executor triagev1.ExecutorServiceClient
	Oracle   triagev1.OracleServiceClient
}

// Score executes the plan under both regimes and computes the references
// and every metric. The two services are called concurrently. Invalid input
// the services reject comes back as an *InputError naming the document's
// fields; file names the document in it.
func Score(ctx context.Context, c Clients, file string, in *Input) (*Output, error) {
	items := make([]*triagev1.GroundTruthItem, len(in.Items))
	for i, it := range in.Items {
		// SPEC §1: an unsolvable item is never solved, whatever correct says.
		items[i] = &triagev1.GroundTruthItem{Id: it.ID, Cost: it.Cost, Correct: it.Correct && !it.Unsolvable, Value: it.Value}
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

	var (
		wg          sync.WaitGroup
		exec        *triagev1.ExecutePlanResponse
		refs        *triagev1.ComputeReferencesResponse
		execErr     error
		oracleError error
	)
	wg.Go(func() {
		exec, execErr = c.Executor.ExecutePlan(ctx, &triagev1.ExecutePlanRequest{
			Pool:   &triagev1.ExecutePlanRequest_Inline{Inline: &triagev1.InlinePool{Items: items}},
			Budget: budget,
			Plan:   plan,
		})
	})
	wg.Go(func() {
		refs, oracleError = c.Oracle.ComputeReferences(ctx, &triagev1.ComputeReferencesRequest{
			Items: items, Budgets: []*triagev1.Budget{budget}, Random: random,
		})
	})
	wg.Wait()
	if err := in.translate(file, execErr, oracleError); err != nil {
		return nil, err
	}
	ref := refs.GetReferences()[0]
	if ref.GetBudget() != exec.GetBudget() {
		return nil, fmt.Errorf("the executor and the oracle disagree on the budget (%d vs %d tokens)", exec.GetBudget(), ref.GetBudget())
	}
	return in.output(items, exec, ref), nil
}

// output is the document for the plan executed on items (the pool as sent
// to the services).
func (in *Input) output(items []*triagev1.GroundTruthItem, exec *triagev1.ExecutePlanResponse, ref *triagev1.BudgetReferences) *Output {
	vOracle, vRandom := ref.GetOracle().GetValue(), ref.GetRandom().GetMean()
	out := &Output{
		Budget:         exec.GetBudget(),
		Alpha:          in.Alpha,
		TotalCost:      exec.GetTotalCost(),
		PoolSize:       int(exec.GetPoolSize()),
		OracleValue:    vOracle,
		OraclePlan:     steps(ref.GetOracle().GetPlan()),
		RandomValue:    vRandom,
		RandomStderr:   ref.GetRandom().GetStandardError(),
		RandomMethod:   enumName(ref.GetRandom().GetMethod().String(), "RANDOM_METHOD_"),
		RandomSamples:  ref.GetRandom().GetSamples(),
		RandomSeed:     ref.GetRandom().GetSeed(),
		Regimes:        map[vocab.Regime]RegimeScore{},
		PlannedTokens:  exec.GetPlannedTokens(),
		OverBudget:     exec.GetOverBudget(),
		NormalizedPlan: steps(exec.GetNormalizedPlan()),
		DroppedSteps:   []DroppedStep{},
		Warnings:       []string{},
	}
	sin := protoconv.ScoreInput(items, exec, ref)
	sin.Unsolvable = make([]bool, len(in.Items))
	for i, it := range in.Items {
		sin.Unsolvable[i] = it.Unsolvable
	}
	scored := planscore.Score(sin)
	for k, res := range exec.GetResults() {
		s := scored.Regimes[k]
		score := RegimeScore{
			Value:           s.Value,
			Eta:             s.Eta,
			RemainingBudget: res.GetRemainingBudget(),
			Trace:           make([]TraceStep, len(res.GetTrace())),
		}
		if s.RegretDefined {
			score.Regret = &s.Regret
		}
		for i, t := range res.GetTrace() {
			score.Trace[i] = TraceStep{
				ID: t.GetId(), Tokens: t.GetTokens(), Cost: t.GetCost(), Correct: t.GetCorrect(),
				Outcome: enumName(t.GetOutcome().String(), "TRACE_OUTCOME_"), Gain: t.GetGain(), RemainingBudget: t.GetRemainingBudget(),
			}
		}
		out.Regimes[s.Regime] = score
	}
	out.Detection, out.Waste = scored.Detection, *scored.Waste
	if out.OverBudget {
		out.Warnings = append(out.Warnings, fmt.Sprintf("the plan allocates %d tokens, over the budget of %d: it is executed anyway and flagged (SPEC §1)", out.PlannedTokens, out.Budget))
	}
	for i, it := range in.Items {
		if it.Unsolvable && it.Correct {
			out.Warnings = append(out.Warnings, fmt.Sprintf("items[%d] (id %q) is unsolvable: it scores 0 although correct is true (a lucky guess is not a solve, SPEC §1)", i, it.ID))
		}
	}
	for _, d := range exec.GetDroppedSteps() {
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

// requestPaths map the services' field paths to the input document's.
var requestPaths = []struct{ from, to string }{
	{"inline.items", "items"},
	{"budgets[0].alpha", "alpha"},
	{"budgets[0].tokens", "budget"},
	{"budget.alpha", "alpha"},
	{"budget.tokens", "budget"},
}

// translate turns the services' InvalidArgument errors into one
// *InputError on the document's paths; other errors pass through.
func (in *Input) translate(file string, errs ...error) error {
	var problems []Problem
	seen := map[Problem]bool{}
	for _, err := range errs {
		if err == nil {
			continue
		}
		if status.Code(err) != codes.InvalidArgument {
			return err
		}
		fvs := grpcerr.FieldViolations(err)
		if len(fvs) == 0 {
			return err
		}
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
	}
	if len(problems) == 0 {
		return nil
	}
	slices.SortStableFunc(problems, func(a, b Problem) int { return a.Line - b.Line })
	return &InputError{File: file, Problems: problems}
}
