package planner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/durationpb"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/llm"
	"github.com/triage-eval/triage/internal/planning/plancall"
	"github.com/triage-eval/triage/internal/planning/plannerids"
	"github.com/triage-eval/triage/internal/planning/repair"
	"github.com/triage-eval/triage/internal/platform/protoconv"
	"github.com/triage-eval/triage/internal/protocol/execution"
)

// CreatePlan makes one plan for one pool. The planner — a model or a
// reference strategy — sees the problems as p1 … pn only; its plan is read
// against those ids and returned in the caller's (SPEC §1).
func (s *Service) CreatePlan(ctx context.Context, req *triagev1.CreatePlanRequest) (*triagev1.CreatePlanResponse, error) {
	problems, table, err := plancall.Shown(req.GetProblems())
	if err != nil {
		return nil, err
	}
	budget := req.GetBudget()
	strategy := req.GetStrategy()
	if strategy == triagev1.PlannerStrategy_PLANNER_STRATEGY_UNSPECIFIED {
		strategy = triagev1.PlannerStrategy_PLANNER_STRATEGY_LLM
	}
	if strategy != triagev1.PlannerStrategy_PLANNER_STRATEGY_LLM {
		var steps []execution.Step
		switch strategy {
		case triagev1.PlannerStrategy_PLANNER_STRATEGY_RANDOM:
			steps = strategyRandom(problems, budget, req.GetSeed())
		case triagev1.PlannerStrategy_PLANNER_STRATEGY_SHORTEST_FIRST:
			steps = strategyShortestFirst(problems, budget)
		default:
			steps = strategyAllInOrder(problems, budget)
		}
		raw := repair.Render(steps)
		return &triagev1.CreatePlanResponse{
			Parsed:     parsedPlan(table.Repair(raw, &budget)),
			RawOutput:  raw,
			Strategy:   strategy,
			Usage:      &triagev1.Usage{},
			Latency:    durationpb.New(0),
			PlannerIds: plannerIDs(table),
		}, nil
	}

	call, tmpl, err := plancall.Render(req, problems)
	if err != nil {
		return nil, err
	}
	prompt := call.Messages[0].Content
	key, ep, err := s.endpoint(req)
	if err != nil {
		return nil, err
	}
	client, err := s.client(key, ep)
	if err != nil {
		return nil, err
	}
	resp, err := client.Complete(withDispatchHeader(ctx), call)
	if err != nil {
		return nil, modelError(ctx, req.GetEndpointName(), ep.Model, err)
	}
	return &triagev1.CreatePlanResponse{
		Parsed:         parsedPlan(table.Repair(resp.Content, &budget)),
		RawOutput:      resp.Content,
		Reasoning:      resp.Reasoning,
		Prompt:         prompt,
		TemplateName:   tmpl.Name,
		TemplateSha256: tmpl.SHA256,
		Usage: &triagev1.Usage{
			PromptTokens:     int64(resp.PromptTokens),
			CompletionTokens: int64(resp.CompletionTokens),
			TotalTokens:      int64(resp.TotalTokens),
			ReasoningTokens:  int64(resp.ReasoningTokens),
			OutputTokens:     int64(resp.Cost),
			OutputTokensRule: protoconv.CostRuleToProto(resp.CostRule),
		},
		FinishReason: resp.FinishReason,
		Truncated:    resp.Truncated,
		Latency:      durationpb.New(resp.Latency),
		CacheHit:     resp.CacheHit,
		Attempts:     int32(resp.Attempts),
		Strategy:     strategy,
		Model:        ep.Model,
		PlannerIds:   plannerIDs(table),
	}, nil
}

// RepairPlan parses and repairs raw planner output: with opaque_ids, output
// that names the problems p1 … pn in the order of problem_ids, as CreatePlan
// shows them; otherwise output that names them by problem_ids.
func (s *Service) RepairPlan(_ context.Context, req *triagev1.RepairPlanRequest) (*triagev1.RepairPlanResponse, error) {
	var budget *int64
	if req.Budget != nil {
		b := req.GetBudget()
		budget = &b
	}
	if !req.GetOpaqueIds() {
		return &triagev1.RepairPlanResponse{Parsed: parsedPlan(repair.Repair(req.GetRawOutput(), req.GetProblemIds(), budget))}, nil
	}
	table, err := plannerids.New(req.GetProblemIds())
	if err != nil {
		return nil, err
	}
	return &triagev1.RepairPlanResponse{Parsed: parsedPlan(table.Repair(req.GetRawOutput(), budget)), PlannerIds: plannerIDs(table)}, nil
}

// inlineKeyPrefix starts the client key of every inline endpoint.
const inlineKeyPrefix = "inline:"

// endpoint resolves the request's endpoint and the key its client is kept
// under: the name for configured endpoints, a hash of the settings for
// inline ones.
func (s *Service) endpoint(req *triagev1.CreatePlanRequest) (string, llm.Endpoint, error) {
	if name := req.GetEndpointName(); name != "" {
		return "name:" + name, s.cfg.Endpoints[name], nil
	}
	in := req.GetInlineEndpoint()
	mode := llm.ModeStandard
	if in.GetMode() == triagev1.SolverMode_SOLVER_MODE_EXTENDED {
		mode = llm.ModeExtended
	}
	timeout := DefaultInlineTimeout
	if in.GetTimeout() != nil {
		timeout = in.GetTimeout().AsDuration()
	}
	ep := llm.Endpoint{
		Name:            "inline",
		BaseURL:         in.GetBaseUrl(),
		Model:           in.GetModel(),
		Mode:            mode,
		Family:          in.GetFamily(),
		MaxOutputTokens: int(in.GetMaxOutputTokens()),
		// The timeout bounds the whole call, so a provider that never
		// answers holds it for timeout, not attempts × timeout.
		Timeout:      timeout,
		TotalTimeout: timeout,
		ExtraBody:    in.GetExtraBody().AsMap(),
	}
	raw, err := protojson.Marshal(in)
	if err != nil {
		return "", llm.Endpoint{}, err
	}
	sum := sha256.Sum256(raw)
	return inlineKeyPrefix + hex.EncodeToString(sum[:]), ep, nil
}

var statuses = map[repair.Status]triagev1.ParseStatus{
	repair.OK:          triagev1.ParseStatus_PARSE_STATUS_OK,
	repair.Repaired:    triagev1.ParseStatus_PARSE_STATUS_REPAIRED,
	repair.Unparseable: triagev1.ParseStatus_PARSE_STATUS_UNPARSEABLE,
}

func parsedPlan(r repair.Result) *triagev1.ParsedPlan {
	out := &triagev1.ParsedPlan{
		Status:        statuses[r.Status],
		ParseError:    r.Error,
		PlannedTokens: r.PlannedTokens,
		OverBudget:    r.OverBudget,
	}
	out.Plan = protoconv.PlanSteps(r.Plan)
	out.DroppedSteps = protoconv.PlanDrops(r.Dropped)
	for _, f := range r.Fixes {
		out.Fixes = append(out.Fixes, &triagev1.RepairFix{Step: f.Step, Detail: f.Detail})
	}
	return out
}
