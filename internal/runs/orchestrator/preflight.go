package orchestrator

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	triagev1 "github.com/triage-eval/triage/gen/triage/v1"
	"github.com/triage-eval/triage/internal/phase0/grading"
	"github.com/triage-eval/triage/internal/protocol/vocab"
)

// PreflightError lists everything that stops a run or a baseline before
// any work: services that do not answer, solvers whose endpoint the
// Planner or the Executor does not know, or (a baseline's) that does not
// answer its check call, (solver, dataset) pairs without gradeable ground
// truth.
type PreflightError struct {
	// Command is what cannot start: "run" (when empty) or "baseline".
	Command string
	// Problems are one sentence each, in the order found.
	Problems []string
}

func (e *PreflightError) Error() string {
	command, nothing := "run", "nothing was sent to any model"
	if e.Command == "baseline" {
		command, nothing = e.Command, "nothing was solved or stored"
	}
	return fmt.Sprintf("the %s cannot start (%d problem(s), %s):\n  - %s",
		command, len(e.Problems), nothing, strings.Join(e.Problems, "\n  - "))
}

// checkBaseline is a baseline's preflight: the Executor answers, knows
// every solver's endpoint in the solver's mode, and each endpoint answers
// its check call (CheckEndpoints, one small call each). It returns a
// sentence per problem, naming the solver, the endpoint and the reason.
func checkBaseline(ctx context.Context, cfg *Config, exec triagev1.ExecutorServiceClient) []string {
	if _, err := exec.ListGroundTruth(ctx, &triagev1.ListGroundTruthRequest{PageSize: 1}); err != nil {
		return []string{"executor service: " + describeCallError(err)}
	}
	var names []string
	for _, s := range cfg.Solvers {
		if !slices.Contains(names, s.Endpoint) {
			names = append(names, s.Endpoint)
		}
	}
	resp, err := exec.CheckEndpoints(ctx, &triagev1.CheckEndpointsRequest{Names: names})
	switch {
	case status.Code(err) == codes.Unimplemented:
		// An Executor of an older triage cannot check its endpoints: the
		// baseline runs, and one whose calls all fail still fails.
		return nil
	case err != nil:
		return []string{"executor service: check endpoints: " + describeCallError(err)}
	}
	checks := map[string]*triagev1.EndpointCheck{}
	for _, c := range resp.GetChecks() {
		checks[c.GetName()] = c
	}
	var problems []string
	for i, s := range cfg.Solvers {
		c := checks[s.Endpoint]
		solver := whereSolverEndpoint(cfg, i)
		switch {
		case !c.GetConfigured():
			problems = append(problems, fmt.Sprintf("%s: endpoint %q is not one the executor knows (it has %q)", solver, s.Endpoint, resp.GetConfigured()))
		case modeName(c.GetMode()) != s.Mode:
			problems = append(problems, fmt.Sprintf("%s: endpoint %q runs mode %s, not %s", solver, s.Endpoint, modeName(c.GetMode()), s.Mode))
		case !c.GetAnswered():
			problems = append(problems, fmt.Sprintf("%s: endpoint %q (model %s) does not answer: %s", solver, s.Endpoint, c.GetModel(), c.GetReason()))
		}
	}
	return problems
}

// checkServices calls each service once, cheaply, and returns a sentence
// per service that does not answer.
func (r *Runner) checkServices(ctx context.Context) []string {
	var out []string
	fail := func(service string, err error) {
		out = append(out, fmt.Sprintf("%s service: %s", service, describeCallError(err)))
	}
	if _, err := r.clients.Oracle.ComputeReferences(ctx, &triagev1.ComputeReferencesRequest{
		Items:   []*triagev1.GroundTruthItem{{Id: "preflight", Cost: 1, Correct: true}},
		Budgets: []*triagev1.Budget{{Kind: &triagev1.Budget_Alpha{Alpha: 1}}},
		Random:  &triagev1.RandomReferenceOptions{Samples: 1},
	}); err != nil {
		fail("oracle", err)
	}
	if _, err := r.clients.Executor.ListGroundTruth(ctx, &triagev1.ListGroundTruthRequest{PageSize: 1}); err != nil {
		fail("executor", err)
	}
	if _, err := r.clients.Planner.ListEndpoints(ctx, &triagev1.ListEndpointsRequest{}); err != nil {
		fail("planner", err)
	}
	return out
}

// checkEndpoints asks the Planner for its endpoints when the llm strategy
// is configured, and returns them by name with a sentence per solver whose
// endpoint is missing or plays another mode.
func (r *Runner) checkEndpoints(ctx context.Context) (map[string]EndpointInfo, []string, error) {
	if !slices.Contains(r.cfg.Strategies, vocab.LLM) {
		return nil, nil, nil
	}
	r.unusable = map[string]string{}
	resp, err := r.clients.Planner.ListEndpoints(ctx, &triagev1.ListEndpointsRequest{})
	if err != nil {
		return nil, nil, fmt.Errorf("planner service: list endpoints: %w", err)
	}
	known := map[string]EndpointInfo{}
	for _, ep := range resp.GetEndpoints() {
		known[ep.GetName()] = EndpointInfo{Name: ep.GetName(), Model: ep.GetModel(), Mode: modeName(ep.GetMode()), Settings: ep.GetSettingsSha256()}
		if why := ep.GetUnusable(); why != "" {
			r.unusable[ep.GetName()] = why
		}
	}
	names := slices.Sorted(maps.Keys(known))
	var problems []string
	for i, s := range r.cfg.Solvers {
		ep, ok := known[s.Endpoint]
		switch solver := whereSolverEndpoint(r.cfg, i); {
		case !ok:
			problems = append(problems, fmt.Sprintf("%s: endpoint %q is not one the planner knows (it has %q)", solver, s.Endpoint, names))
		case ep.Mode != s.Mode:
			problems = append(problems, fmt.Sprintf("%s: endpoint %q runs mode %s, not %s", solver, s.Endpoint, ep.Mode, s.Mode))
		}
	}
	return known, problems, nil
}

// unusableEndpoints are the problems of the llm cells of todo whose
// solver's endpoint the Planner cannot call (ListEndpoints' unusable: its
// API key unset, say), one per solver: a run that would call it stops
// before its first call instead of failing every one; a run with nothing
// to plan there goes on.
func (r *Runner) unusableEndpoints(todo []cell) []string {
	var problems []string
	for i, s := range r.cfg.Solvers {
		why := r.unusable[s.Endpoint]
		if why == "" {
			continue
		}
		if slices.ContainsFunc(todo, func(c cell) bool { return c.strategy == vocab.LLM && c.g.solver == s }) {
			problems = append(problems, fmt.Sprintf("%s: the planner cannot call endpoint %q: %s", whereSolverEndpoint(r.cfg, i), s.Endpoint, why))
		}
	}
	return problems
}

// modeName is the config's name of a solver mode.
func modeName(m triagev1.SolverMode) string {
	if m == triagev1.SolverMode_SOLVER_MODE_EXTENDED {
		return "extended"
	}
	return "standard"
}

// describeCallError is a gRPC error as one readable phrase: its code and
// message.
func describeCallError(err error) string {
	if s, ok := status.FromError(err); ok {
		return fmt.Sprintf("%s: %s", s.Code(), s.Message())
	}
	return err.Error()
}

// CheckGradable is the first step of a baseline's preflight, before any
// model call: every problem of the baseline's datasets has grading data a
// grader can use, or a *PreflightError names those that have not (the
// Executor would refuse them, solver after solver, after the endpoints'
// check calls).
func CheckGradable(cfg *Config) error {
	list, err := baselineList(cfg)
	if err != nil {
		return err
	}
	if problems := ungradable(list); len(problems) > 0 {
		return &PreflightError{Command: "baseline", Problems: problems}
	}
	return nil
}

// maxUngradableListed bounds the problems ungradable names one by one.
const maxUngradableListed = 10

// ungradable lists, for a baseline's preflight, the problems whose grading
// data no grader can use (grading.ParseSpec): the Executor would refuse
// them, solver after solver, after the endpoints' check calls. The first
// few are named; the rest are counted.
func ungradable(list []*triagev1.Problem) []string {
	var out []string
	bad := 0
	for _, p := range list {
		if _, err := grading.ParseSpec(json.RawMessage(p.GetGradingJson())); err != nil {
			if bad++; bad <= maxUngradableListed {
				out = append(out, fmt.Sprintf("problem %s/%s: %v (see docs/phase0.md for the grading data of each kind)", p.GetDataset(), p.GetId(), err))
			}
		}
	}
	if bad > maxUngradableListed {
		out = append(out, fmt.Sprintf("and %d more problems whose grading data no grader can use", bad-maxUngradableListed))
	}
	return out
}

// whereSolverEndpoint names solver i's endpoint setting for a preflight
// problem: "run.yaml:9: solvers[0].endpoint (qwen3-8b/extended)".
func whereSolverEndpoint(cfg *Config, i int) string {
	s := cfg.Solvers[i]
	return fmt.Sprintf("%s (%s/%s)", cfg.Where(fmt.Sprintf("solvers[%d].endpoint", i)), s.Model, s.Mode)
}
